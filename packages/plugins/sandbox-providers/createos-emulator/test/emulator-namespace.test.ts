import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/index.js";
import { isAlive, RawApi, streamText } from "./support/raw-api.js";

let emulator: CreateosEmulator;
let api: RawApi;
let sandbox: string;

beforeAll(async () => {
  emulator = await startCreateosEmulator({
    isolation: "namespace",
    rateLimitPerMinute: null,
    transitionMs: 10,
  });
  api = new RawApi(emulator);
  sandbox = await api.runningSandbox();
});

afterAll(async () => {
  await emulator?.close();
});

/** `POST /sandboxes/{id}/exec` of a bash script: its result (`exit_code`, `stdout`, …). */
const exec = async (script: string): Promise<{ exit_code?: number; stdout?: string } | undefined> =>
  (await api.call("POST", `/sandboxes/${sandbox}/exec`, { cmd: "/bin/bash", args: ["-c", script] })).json
    ?.data?.result as { exit_code?: number; stdout?: string } | undefined;

describe("emulator with isolation: namespace", () => {
  it("shows the sandbox's directories at their exact paths, also to paths computed at run time", async () => {
    await api.call("PUT", `/sandboxes/${sandbox}/files?path=/tmp/in.txt`, new TextEncoder().encode("staged"));
    const pid = await api.process(
      sandbox,
      "cd -- '/paperclip-workspace' || exit\npwd; cat /tmp/in.txt; echo; echo made > \"$(pwd)/out.txt\"; echo $HOME",
    );
    await api.waitExit(sandbox, pid);
    const read = await api.connect(sandbox, pid, 0);
    // HOME is outside the workspace, as a VM's is.
    expect(streamText(read.frames, "stdout")).toBe("/paperclip-workspace\nstaged\n/tmp\n");
    const file = await api.call("GET", `/sandboxes/${sandbox}/files?path=/paperclip-workspace/out.txt`);
    expect(file.bytes.toString()).toBe("made\n");
    // The host's own root is left as it was: no mount point made there.
    expect(existsSync("/paperclip-workspace/out.txt")).toBe(false);
  });

  it("keeps a background process after its command, visible to the next command, and reaches loopback", async () => {
    const port = new URL(emulator.url).port;
    const started = await exec("nohup sleep 300 >/dev/null 2>&1 & echo $!");
    expect(started).toMatchObject({ exit_code: 0 });
    const pid = Number(started?.stdout?.trim());
    try {
      expect(await exec(`kill -0 ${pid} && echo alive`)).toMatchObject({ stdout: "alive\n" });
      expect(isAlive(pid)).toBe(true);
      expect(
        await exec(`(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo net || echo no-net`),
      ).toMatchObject({ stdout: "net\n" });
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("shows the host's files outside the sandbox's directories", async () => {
    expect(await exec(`test -r ${JSON.stringify(process.execPath)} && echo host-visible`)).toMatchObject({
      exit_code: 0,
      stdout: "host-visible\n",
    });
  });
});
