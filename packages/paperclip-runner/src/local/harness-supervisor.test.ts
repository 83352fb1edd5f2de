import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { memoryStateStore } from "../state/state-store.js";
import { type HarnessLauncher, HarnessSupervisor } from "./harness-supervisor.js";
import { localTimings } from "./local-timings.js";
import { RunLedger } from "./run-ledger.js";

describe("a harness start whose state cannot be made durable", () => {
  it("fails, and the sandbox set up for the harness is cleaned up by then", async () => {
    const store = {
      ...memoryStateStore({ runId: "r", sessionId: "s", runnerId: "n" }),
      save: () => Promise.reject(new Error("no space left on device")),
    };
    const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const ledger = new RunLedger(store, sink, { onBacklog: () => undefined, fail: () => undefined });
    let cleanups = 0;
    const launcher: HarnessLauncher = {
      label: "harness",
      driverKind: "command",
      sandboxed: true,
      // What a sandbox launcher hands over: its proxy and directories end with `cleanup`.
      build: async () => ({
        command: "/bin/true",
        args: [],
        cwd: "/",
        env: {},
        label: "harness",
        sandboxed: true,
        cleanup: async () => {
          cleanups += 1;
        },
      }),
    };
    const supervisor = new HarnessSupervisor(ledger, launcher, localTimings(), {
      onTerminal: () => undefined,
      fail: () => undefined,
    });
    await expect(supervisor.start(null)).rejects.toThrow("no space left on device");
    expect(cleanups).toBe(1);
  });
});
