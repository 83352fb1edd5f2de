import { describe, expect, it } from "vitest";
import { parseFakeScript } from "./fake-script.js";

describe("parseFakeScript", () => {
  it("accepts every step kind and fills the defaults", () => {
    const steps = [
      { ready: {} },
      { event: { eventType: "item.delta" } },
      { request: { requestId: "r" } },
      { result: null },
      { terminal: { status: "succeeded" } },
      { log: "l" },
      { diagnostic: {} },
      { waitFor: "turn.start" },
      { sleep: 1 },
      { stdout: "x" },
      { stderr: "y" },
      { oversizedStdout: 70000 },
      { oversizedStderr: 70000 },
      { spawnSleeper: { pidFile: "/tmp/p", ms: 10 } },
      { appendFile: { path: "/tmp/f", text: "t" } },
      { emitEnv: true },
      { eventBurst: { count: 3, event: { eventType: "item.delta" } } },
      { crash: "SIGKILL" },
      { exit: 0 },
    ];
    expect(parseFakeScript({ steps, on: { "turn.start": [{ result: 1 }] } })).toEqual({
      ok: true,
      script: {
        commandLog: null,
        ignoreSigterm: false,
        ignoreStdinEof: false,
        steps,
        on: { "turn.start": [{ result: 1 }] },
      },
    });
  });

  it.each([
    [[], "the script must be a JSON object"],
    [{ commandLog: 1 }, "commandLog must be a path string"],
    [{ ignoreSigterm: "yes" }, "ignoreSigterm must be a boolean"],
    [{ ignoreStdinEof: 1 }, "ignoreStdinEof must be a boolean"],
    [{ steps: {} }, "steps must be an array of steps"],
    [{ steps: [{ ready: {}, exit: 0 }] }, "steps[0]: a step must have exactly one key"],
    [{ steps: [{ dance: true }] }, 'steps[0]: unknown step "dance"'],
    [{ steps: [{ exit: 300 }] }, "steps[0]: exit takes an exit code 0..255"],
    [{ steps: [{ crash: "SIGHUP" }] }, "steps[0]: crash takes one of SIGKILL, SIGSEGV, SIGABRT, SIGTERM"],
    [{ steps: [{ request: {} }] }, "steps[0]: request takes an object with a requestId"],
    [
      { steps: [{ event: { a: 1 } }] },
      "steps[0]: event takes an object with an eventType (a PRP event type)",
    ],
    [{ steps: [{ terminal: "done" }] }, "steps[0]: terminal takes an object"],
    [{ on: [] }, "on must be an object of command type to steps"],
    [{ steps: [{ eventBurst: { count: 1 } }] }, "steps[0]: eventBurst takes { count, event }"],
    [{ on: { "turn.start": [{ sleep: -1 }] } }, 'on["turn.start"][0]: sleep takes a non-negative integer'],
  ])("rejects %j", (script, reason) => {
    expect(parseFakeScript(script)).toEqual({ ok: false, reason });
  });
});
