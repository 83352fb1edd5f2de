import { RunnerError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { ExecutorContext } from "./executor-context.js";

describe("ExecutorContext.state", () => {
  it("fails with a coded error while run.prepare has bound no provider", () => {
    const ctx = new ExecutorContext(
      { runId: "run", sessionId: "session" } as unknown as ConstructorParameters<typeof ExecutorContext>[0],
      "/nonexistent",
      null,
      0,
      async () => {},
    );
    expect(() => ctx.state()).toThrow(RunnerError);
    expect(() => ctx.state()).toThrow(expect.objectContaining({ code: "ERR_RUNNER_PROVIDER_NOT_BOUND" }));
  });
});
