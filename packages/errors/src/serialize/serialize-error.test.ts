import { describe, expect, it } from "vitest";
import { CreateosApiError } from "../families/createos-api-error.js";
import { CreateosError } from "../families/createos-error.js";
import { RunnerError } from "../families/runner-error.js";
import { SandboxError } from "../families/sandbox-error.js";
import { PaperclipError } from "../paperclip-error.js";
import { deserializeError } from "./deserialize-error.js";
import { serializeError } from "./serialize-error.js";

describe("serializeError", () => {
  it("handles non-errors without throwing", () => {
    expect(serializeError("boom")).toEqual({ name: "NonError", message: "boom" });
    expect(serializeError(undefined)).toEqual({ name: "NonError", message: "undefined" });
    expect(serializeError({ a: 1 })).toEqual({ name: "NonError", message: '{"a":1}' });
    expect(serializeError(Symbol("s"))).toEqual({ name: "NonError", message: "Symbol(s)" });
    expect(serializeError(10n)).toEqual({ name: "NonError", message: "10" });
  });

  it("survives cycles in causes and details", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;
    const details: Record<string, unknown> = { x: 1 };
    details.self = details;
    const coded = new SandboxError("ERR_SANDBOX_PROXY_SOCKET_DIR", "c", {
      cause: a,
      details: details as never,
    });
    const json = serializeError(coded);
    expect(json.cause?.cause?.cause).toEqual({ name: "CircularReference", message: "[Circular]" });
    expect(json.details).toEqual({ x: 1, self: "[Circular]" });
    expect(() => JSON.stringify(json)).not.toThrow();
  });

  it("bounds the depth of cause chains", () => {
    let error = new Error("0");
    for (let index = 1; index < 50; index += 1) error = new Error(String(index), { cause: error });
    let depth = 0;
    for (let node = serializeError(error, { maxDepth: 5 }); node.cause; node = node.cause) depth += 1;
    expect(depth).toBe(4);
  });

  it("serializes AggregateError members", () => {
    const json = serializeError(new AggregateError([new Error("one"), "two"], "many"));
    expect(json.errors).toEqual([
      { name: "Error", message: "one" },
      { name: "NonError", message: "two" },
    ]);
  });

  it("never throws on hostile getters", () => {
    const hostile = new Error("h");
    Object.defineProperty(hostile, "details", {
      get() {
        throw new Error("nope");
      },
    });
    Object.defineProperty(hostile, "message", {
      get() {
        throw new Error("nope");
      },
    });
    expect(serializeError(hostile)).toEqual({ name: "Error", message: "undefined" });
  });

  it("drops non-finite numbers and functions from details", () => {
    const error = new RunnerError("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS", "m", {
      details: { n: Number.NaN as never, nested: { fn: (() => 1) as never } },
    });
    expect(serializeError(error).details).toEqual({ n: "NaN", nested: { fn: "() => 1" } });
  });
});

describe("deserializeError", () => {
  it.each([
    [new SandboxError("ERR_SANDBOX_PROXY_SOCKET_DIR", "s", { details: { a: 1 } }), SandboxError],
    [new RunnerError("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS", "r", { retryable: true }), RunnerError],
    [new CreateosError("ERR_CREATEOS_OUTPUT_CONNECTION", "c", { retryAfterMs: 5 }), CreateosError],
    [
      new CreateosApiError("ERR_CREATEOS_OUTPUT_CONNECTION", "a", {
        status: 503,
        operation: "output connection",
      }),
      CreateosApiError,
    ],
    [new PaperclipError("ERR_ERRORS_UNKNOWN_CODE", "u"), PaperclipError],
  ])("rebuilds %s with its class", (original, Class) => {
    const rebuilt = deserializeError(JSON.stringify(original));
    expect(rebuilt).toBeInstanceOf(Class);
    expect(serializeError(rebuilt)).toEqual(serializeError(original));
  });

  it("round-trips a cause chain", () => {
    const original = new SandboxError("ERR_SANDBOX_PROXY_SOCKET_DIR", "outer", {
      cause: new RunnerError("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS", "inner", {
        cause: new TypeError("root"),
      }),
    });
    const rebuilt = deserializeError(serializeError(original));
    expect(rebuilt.cause).toBeInstanceOf(RunnerError);
    expect((rebuilt.cause as Error).cause).toMatchObject({ name: "TypeError", message: "root" });
  });

  it("keeps an unknown code on a generic PaperclipError", () => {
    const rebuilt = deserializeError({ name: "FutureError", code: "ERR_FUTURE_THING", message: "later" });
    expect(rebuilt).toBeInstanceOf(PaperclipError);
    expect(PaperclipError.is(rebuilt)).toBe(true);
    expect((rebuilt as PaperclipError).code).toBe("ERR_FUTURE_THING");
  });

  it("keeps a code area's class for codes newer than this registry", () => {
    expect(deserializeError({ code: "ERR_SANDBOX_FROM_THE_FUTURE", message: "x" })).toBeInstanceOf(
      SandboxError,
    );
  });

  it("rebuilds plain errors, aggregates and non-objects", () => {
    expect(deserializeError({ name: "RangeError", message: "r", code: "EPIPE" })).toMatchObject({
      name: "RangeError",
      message: "r",
      code: "EPIPE",
    });
    const aggregate = deserializeError({
      name: "AggregateError",
      message: "m",
      errors: [{ message: "one" }],
    });
    expect(aggregate).toBeInstanceOf(AggregateError);
    expect((aggregate as AggregateError).errors[0]).toMatchObject({ message: "one" });
    expect(deserializeError("not json").message).toBe("not json");
    expect(deserializeError(42).message).toBe("42");
  });
});
