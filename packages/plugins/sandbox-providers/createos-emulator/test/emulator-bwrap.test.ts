import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildPlantedLoader, tempDirForTest } from "@paperclipai/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/index.js";
import { isAlive, RawApi, streamText } from "./support/raw-api.js";

let emulator: CreateosEmulator;
let api: RawApi;
let sandbox: string;

beforeAll(async () => {
  emulator = await startCreateosEmulator({ isolation: "bwrap", rateLimitPerMinute: null, transitionMs: 10 });
  api = new RawApi(emulator);
  sandbox = await api.runningSandbox();
});

afterAll(async () => {
  await emulator?.close();
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

  it("shows only system paths read-only, hides the host's files and /tmp, and has no network", async () => {
    const exec = await api.call("POST", `/sandboxes/${sandbox}/exec`, {
      cmd: "/bin/bash",
      args: [
        "-c",
        [
          "touch /usr/emulator-probe 2>/dev/null && echo writable || echo read-only",
          "ls -A /tmp",
          "test -e /work && echo host-visible || echo host-hidden",
          "cat /etc/shadow >/dev/null 2>&1 && echo shadow-visible || echo shadow-hidden",
          "(exec 3<>/dev/tcp/127.0.0.1/" +
            new URL(emulator.url).port +
            ") 2>/dev/null && echo net || echo no-net",
        ].join("; "),
      ],
    });
    expect(exec.json?.data?.result).toMatchObject({
      exit_code: 0,
      stdout: "read-only\nin.txt\nhost-hidden\nshadow-hidden\nno-net\n",
    });
  });

  it("runs the host's standard tools, including those linked through /etc/alternatives (awk)", async () => {
    const exec = await api.call("POST", `/sandboxes/${sandbox}/exec`, {
      cmd: "/bin/sh",
      args: ["-c", "echo 'a b' | awk '{print $2}'; sha256sum /dev/null | awk '{print $1}'"],
    });
    expect(exec.json?.data?.result).toMatchObject({
      exit_code: 0,
      stdout: "b\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n",
    });
  });

  it("keeps sandbox directories outside /tmp and removes them on close", async () => {
    const dir = emulator.sandboxes().find((item) => item.id === sandbox)?.workspaceDir ?? "";
    expect(dir.startsWith("/var/tmp/createos-emulator-")).toBe(true);
  });

  it("refuses a cwd outside the sandbox directories", async () => {
    const reply = await api.call("POST", `/sandboxes/${sandbox}/processes`, {
      cmd: "/bin/true",
      cwd: "/usr",
    });
    expect(reply.status).toBe(400);
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

  // bwrap runs on the host: a loader variable of the sandbox's env must reach the program only.
  it("hands LD_PRELOAD to the program without loading it into bwrap on the host", async () => {
    const dir = tempDirForTest("emulator-loader-env-");
    const marker = join(dir, "loaded-by");
    const planted = buildPlantedLoader(join(dir, "planted.so"), marker);
    const id = await api.runningSandbox({ env: { LD_PRELOAD: planted } });
    const exec = await api.call("POST", `/sandboxes/${id}/exec`, {
      cmd: "/bin/sh",
      args: ["-c", 'printf "%s" "$LD_PRELOAD"'],
    });
    expect(exec.json?.data?.result).toMatchObject({ exit_code: 0, stdout: planted });
    const loadedBy = (() => {
      try {
        return readFileSync(marker, "utf8");
      } catch {
        return "";
      }
    })();
    expect(loadedBy.split("\n")).not.toContain("bwrap");
  });
});
