import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/testing.js";
import { isAlive, RawApi, streamText } from "./emulator-support/raw-api.js";

let emulator: CreateosEmulator;
let api: RawApi;
let sandbox: string;

beforeAll(async () => {
  emulator = await startCreateosEmulator({ isolation: "bwrap", rateLimitPerMinute: null, transitionMs: 10 });
  api = new RawApi(emulator);
  sandbox = await api.runningSandbox();
});

afterAll(async () => {
  await emulator.close();
});

describe("emulator with isolation: bwrap", () => {
  it("runs processes with the sandbox directories at /paperclip-workspace and /tmp", async () => {
    await api.call("PUT", `/sandboxes/${sandbox}/files?path=/tmp/in.txt`, new TextEncoder().encode("staged"));
    const pid = await api.process(
      sandbox,
      "cd -- '/paperclip-workspace' || exit\npwd; cat /tmp/in.txt; echo; echo made > /paperclip-workspace/out.txt; echo $HOME",
    );
    await api.waitExit(sandbox, pid);
    const read = await api.connect(sandbox, pid, 0);
    expect(streamText(read.frames, "stdout")).toBe("/paperclip-workspace\nstaged\n/paperclip-workspace\n");
    const file = await api.call("GET", `/sandboxes/${sandbox}/files?path=/paperclip-workspace/out.txt`);
    expect(file.bytes.toString()).toBe("made\n");
  });

  it("keeps the host read-only and the host's /tmp out of sight", async () => {
    const exec = await api.call("POST", `/sandboxes/${sandbox}/exec`, {
      cmd: "/bin/bash",
      args: ["-c", "touch /usr/emulator-probe 2>/dev/null && echo writable || echo read-only; ls -A /tmp"],
    });
    expect(exec.json?.data?.result).toMatchObject({ exit_code: 0, stdout: "read-only\nin.txt\n" });
  });

  it("kills the confined tree", async () => {
    const pid = await api.process(sandbox, "sleep 300 & wait");
    const osPid = emulator.processes().find((item) => item.id === pid)?.osPid ?? 0;
    expect(isAlive(osPid)).toBe(true);
    expect(
      (await api.call("DELETE", `/sandboxes/${sandbox}/processes/${pid}?grace_ms=100`)).json?.data,
    ).toEqual({
      tree_exited: true,
    });
    expect(emulator.processes().find((item) => item.id === pid)?.treeAlive).toBe(false);
    expect(isAlive(osPid)).toBe(false);
  });
});
