import { RunnerError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { boundedRedactedDiagnostic } from "./bounded-redacted-diagnostic.js";
import { describeFailure } from "./describe-failure.js";

describe("describeFailure", () => {
  it("keeps upstream's first line for a coded error, then its code and details, no stack", () => {
    const error = new RunnerError("ERR_RUNNER_MISSING_VALUE", "missing value for --script", {
      details: { name: "--script" },
    });
    expect(describeFailure("error", error, ["ignored unknown flags: --x"])).toBe(
      'paperclip-runnerd: missing value for --script\ncode: ERR_RUNNER_MISSING_VALUE\ndetails: {"name":"--script"}\n' +
        "ignored unknown flags: --x\n",
    );
  });

  it("names the kind of an escaped failure and keeps the stack of an unexpected error", () => {
    const text = describeFailure("uncaught exception", new TypeError("x is not a function"));
    expect(text).toMatch(/^paperclip-runnerd: uncaught exception: x is not a function\nstack:\n {2}at /);
  });

  it("keeps only the frames of a stack, never the lines of a multi-line message", () => {
    const pem =
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEsecretbody1\nsecretbody2\n-----END RSA PRIVATE KEY-----";
    const text = describeFailure("uncaught exception", new Error(`boom ${pem} tail`));
    const stack = text.slice(text.indexOf("\nstack:\n") + "\nstack:\n".length);
    expect(stack).not.toContain("secretbody");
    expect(
      stack
        .split("\n")
        .filter(Boolean)
        .every((line) => line.startsWith("  at ")),
    ).toBe(true);
    expect(boundedRedactedDiagnostic(text)).not.toContain("secretbody");
  });

  it("follows the cause chain, with codes, at most eight deep", () => {
    let cause: unknown = new Error("root");
    for (let depth = 0; depth < 12; depth += 1) cause = new Error(`level ${depth}`, { cause });
    const coded = new RunnerError("ERR_RUNNER_DIAGNOSTICS_WRITE_FAILED", "EIO: i/o error, write", {
      cause: new RunnerError("ERR_RUNNER_PRIVATE_WRITE_FAILED", "inner", { cause }),
    });
    const lines = describeFailure("error", coded).split("\n");
    const causes = lines.filter((line) => line.startsWith("caused by: "));
    expect(causes).toHaveLength(8);
    expect(causes[0]).toBe("caused by: inner [ERR_RUNNER_PRIVATE_WRITE_FAILED]");
    expect(causes[1]).toBe("caused by: level 11");
  });

  it("never throws, even for a value whose every property access throws", () => {
    const error = new Error("visible password=hunter2");
    Object.defineProperty(error, "stack", {
      get() {
        throw new Error("stack getter failed");
      },
    });
    expect(describeFailure("uncaught exception", error, ["ctx"])).toBe(
      "paperclip-runnerd: uncaught exception: [the failure could not be described: stack getter failed]\nctx\n",
    );
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(describeFailure("unhandled rejection", proxy)).toMatch(
      /^paperclip-runnerd: unhandled rejection: \[the failure could not be described: .+\]\n$/,
    );
  });

  it("describes thrown values that are not errors", () => {
    expect(describeFailure("unhandled rejection", "plain string")).toBe(
      "paperclip-runnerd: unhandled rejection: plain string\n",
    );
    expect(describeFailure("unhandled rejection", { status: 503, body: "x" })).toBe(
      "paperclip-runnerd: unhandled rejection: { status: 503, body: 'x' }\n",
    );
    expect(describeFailure("error", undefined)).toBe("paperclip-runnerd: undefined\n");
  });
});
