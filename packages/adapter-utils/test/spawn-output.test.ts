import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_CAPTURE_BYTES, runChildProcess } from "../src/spawn/run-child-process.js";
import { cleanupAll, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

const base = { env: {}, timeoutSec: 60, graceSec: 1 };

describe("runChildProcess under hostile output", () => {
  it("decodes a character split across two reads whole, for onLog and the result", async () => {
    const dir = await scratchDir();
    const go = path.join(dir, "go");
    // The child writes "a" and the first two bytes of "€", then waits until the first
    // chunk reached onLog (which creates `go`): the character is split across two reads.
    const script = `
      const fs = require("node:fs");
      fs.writeSync(1, Buffer.from([0x61, 0xe2, 0x82]));
      while (!fs.existsSync(${JSON.stringify(go)})) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      fs.writeSync(1, Buffer.from([0xac, 0x20, 0x62]));`;
    const chunks: string[] = [];
    const result = await runChildProcess("utf8", process.execPath, ["-e", script], {
      ...base,
      cwd: dir,
      onLog: async (_stream, chunk) => {
        chunks.push(chunk);
        if (!existsSync(go)) await writeFile(go, "");
      },
    });
    expect(result.exitCode).toBe(0);
    expect(chunks).toEqual(["a", "€ b"]);
    expect(result.stdout).toBe("a€ b");
  });

  it("keeps the last 4 MiB in bytes, starting on a whole character", async () => {
    const dir = await scratchDir();
    // 1.6 M three-byte characters: 4.8 MB, more than the cap, which is not a multiple of 3.
    const count = 1_600_000;
    const script = `process.stdout.write("€".repeat(${count}));`;
    let delivered = 0;
    const result = await runChildProcess("cap", process.execPath, ["-e", script], {
      ...base,
      cwd: dir,
      onLog: async (_stream, chunk) => {
        delivered += chunk.length;
      },
    });
    expect(result.exitCode).toBe(0);
    // onLog saw every character; the result keeps the whole characters of the last 4 MiB.
    expect(delivered).toBe(count);
    expect(result.stdout).toBe("€".repeat(Math.floor(MAX_CAPTURE_BYTES / 3)));
  });

  it("reports a throwing onLog and still returns the child's status and output", async () => {
    const dir = await scratchDir();
    const reported: unknown[] = [];
    const result = await runChildProcess("throws", "/bin/sh", ["-c", "echo out; echo err >&2; exit 7"], {
      ...base,
      cwd: dir,
      onLog: () => {
        throw new Error("log store down");
      },
      onLogError: (error) => reported.push(error),
    });
    expect(result).toMatchObject({ exitCode: 7, stdout: "out\n", stderr: "err\n" });
    expect(reported.map((error) => (error as Error).message)).toEqual(["log store down", "log store down"]);
  });

  it("abandons an onLog that never settles: the child is not blocked and its exit is reported", async () => {
    const dir = await scratchDir();
    const reported: unknown[] = [];
    let calls = 0;
    // 1 MiB is far more than a pipe holds: with the output paused for good, the child
    // would block in write() and the run would never end.
    const script = `process.stdout.write("x".repeat(1024 * 1024)); process.exitCode = 3;`;
    const result = await runChildProcess("stalls", process.execPath, ["-e", script], {
      ...base,
      timeoutSec: 0,
      cwd: dir,
      onLogStallMs: 100,
      onLog: () => {
        calls += 1;
        return new Promise<void>(() => {});
      },
      onLogError: (error) => reported.push(error),
    });
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(result.stdout).toBe("x".repeat(1024 * 1024));
    expect(calls).toBe(1);
    expect(reported).toHaveLength(1);
    expect(PaperclipError.is(reported[0], "ERR_SANDBOX_LOG_CALLBACK_STALLED")).toBe(true);
  });

  it("abandons a stalled onLog inside the sandbox too, and still cleans up", async () => {
    const ws = await scratchDir();
    const reported: unknown[] = [];
    const result = await runChildProcess(
      "stalls-sandboxed",
      "/bin/sh",
      ["-c", "head -c 300000 /dev/zero; exit 5"],
      {
        ...base,
        cwd: ws,
        onLogStallMs: 100,
        onLog: () => new Promise<void>(() => {}),
        onLogError: (error) => reported.push(error),
        localProcessSandbox: {
          workspaceDir: ws,
          filesystemScope: "workspace",
          networkScope: "deny",
          command: "/usr/bin/bwrap",
        },
      },
    );
    expect(result.exitCode).toBe(5);
    expect(Buffer.byteLength(result.stdout)).toBe(300_000);
    expect(reported.map((error) => (error as PaperclipError).code)).toEqual([
      "ERR_SANDBOX_LOG_CALLBACK_STALLED",
    ]);
  });
});
