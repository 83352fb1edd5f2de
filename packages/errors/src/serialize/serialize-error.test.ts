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

/** A Proxy whose every trap throws: `instanceof`, `Object.keys` and every read fail. */
function throwingProxy(): object {
  return new Proxy(
    {},
    new Proxy(
      {},
      {
        get() {
          return () => {
            throw new Error("trap");
          };
        },
      },
    ),
  );
}

describe("serializeError on hostile input", () => {
  const coded = (options: ConstructorParameters<typeof SandboxError>[2]) =>
    new SandboxError("ERR_SANDBOX_PROXY_SOCKET_DIR", "outer", options);

  it("keeps the error when its cause or a detail cannot be read", () => {
    expect(serializeError(coded({ cause: throwingProxy() }))).toMatchObject({
      message: "outer",
      cause: { name: "NonError", message: "[unserializable value]" },
    });
    expect(serializeError(coded({ details: { p: throwingProxy() as never, ok: 1 } })).details).toEqual({
      p: "[Unreadable]",
      ok: 1,
    });
  });

  it("follows at most 64 levels of cause whatever maxDepth asks, instead of overflowing the stack", () => {
    let error = new Error("0");
    for (let index = 1; index < 10_000; index += 1) error = new Error(String(index), { cause: error });
    let depth = 0;
    for (let node = serializeError(error, { maxDepth: 1e9 }); node.cause; node = node.cause) depth += 1;
    expect(depth).toBe(63);
  });

  it("bounds shared references: the same object under many keys costs what it would written out", () => {
    let shared: unknown = { leaf: "v" };
    for (let level = 0; level < 10; level += 1) shared = [shared, shared, shared, shared];
    const text = JSON.stringify(serializeError(coded({ details: { shared: shared as never } })));
    expect(text.length).toBeLessThan(1.1 * 1024 * 1024);
    expect(text).toContain('"[Truncated]"');
  });

  it("bounds an AggregateError of many errors and says how many were left out", () => {
    const many = new AggregateError(
      Array.from({ length: 50_000 }, (_, index) => new Error(`error ${index}`)),
      "many",
    );
    const json = serializeError(many);
    expect(JSON.stringify(json).length).toBeLessThan(1.1 * 1024 * 1024);
    expect(json.errors?.at(-1)).toMatchObject({
      name: "Truncated",
      message: expect.stringMatching(/^\d+ more errors$/),
    });
  });

  it("cuts a long string to 64 KiB after redacting it", () => {
    const message = `token=${"s".repeat(40)} ${"x".repeat(2_000_000)}`;
    const json = serializeError(new Error(message));
    expect(new TextEncoder().encode(json.message).length).toBeLessThanOrEqual(64 * 1024);
    expect(json.message.startsWith("token=[REDACTED] xxx")).toBe(true);
    expect(json.message.endsWith("…[truncated]")).toBe(true);
  });

  it("redacts a value by its key, a secret written as a key, and odd-cased header names", () => {
    const details = {
      password: "hunter2",
      nested: [{ apiKey: "s3cr3tv4lue" }],
      headers: {
        cOoKiE: "sid=abcdef123456",
        "Set-Cookie": "sid=abcdef123456; Path=/",
        "x-API-key": "XYZkey123456",
        AUTHORIZATION: "Basic dXNlcjpwYXNz",
      },
      "sk-proj-abcdefghijklmnopqrstuvwx": "keyed",
      token: "expired",
      max_tokens: 4096,
    };
    expect(serializeError(coded({ details: details as never })).details).toEqual({
      password: "[REDACTED]",
      nested: [{ apiKey: "[REDACTED]" }],
      headers: {
        cOoKiE: "[REDACTED]",
        "Set-Cookie": "[REDACTED]",
        "x-API-key": "[REDACTED]",
        AUTHORIZATION: "Basic [REDACTED]",
      },
      "[REDACTED]": "keyed",
      token: "expired",
      max_tokens: 4096,
    });
  });

  it("never copies binary data, and reads Maps, Sets and Dates", () => {
    const details = {
      buffer: new TextEncoder().encode("password=hunter2"),
      map: new Map<unknown, unknown>([
        ["password", "hunter2"],
        [1, "one"],
      ]),
      set: new Set(["Bearer abcdefghijklmnop"]),
      date: new Date(0),
    };
    expect(serializeError(coded({ details: details as never })).details).toEqual({
      buffer: "[Uint8Array: 16 bytes]",
      map: { password: "[REDACTED]", 1: "one" },
      set: ["Bearer [REDACTED]"],
      date: "1970-01-01T00:00:00.000Z",
    });
  });

  it("keeps a __proto__ key as an own key, never as the output's prototype", () => {
    const details = JSON.parse('{"__proto__": {"isAdmin": true}}');
    const json = serializeError(coded({ details })).details as Record<string, unknown>;
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    expect(json.isAdmin).toBeUndefined();
    expect(JSON.stringify(json)).toBe('{"__proto__":{"isAdmin":true}}');
  });

  it("redacts the name and the code, which the thrower chose too", () => {
    const error = Object.assign(new Error("m"), {
      name: "token=abcdef123456",
      code: "ghp_A1b2C3d4E5f6G7h8I9j0K1l2",
    });
    expect(serializeError(error)).toEqual({ name: "token=[REDACTED]", message: "m", code: "[REDACTED]" });
  });

  it("drops a negative retryAfterMs", () => {
    expect(serializeError(coded({ retryAfterMs: -5 }))).not.toHaveProperty("retryAfterMs");
  });
});

describe("deserializeError on hostile input", () => {
  it("redacts and bounds text that is not JSON, and a huge message", () => {
    expect(deserializeError("not json: token=sk-proj-abcdefghijklmnop").message).toBe(
      "not json: token=[REDACTED]",
    );
    expect(deserializeError({ message: "m".repeat(5_000_000) }).message.length).toBeLessThanOrEqual(
      64 * 1024,
    );
  });

  it("redacts what a forged payload carries: message, name, details", () => {
    const rebuilt = deserializeError({
      name: "PaperclipError",
      code: "ERR_SANDBOX_PROXY_SOCKET_DIR",
      message: "token=hunter2secret",
      details: { password: "hunter2", note: "Bearer abcdefghijklmnop" },
    }) as SandboxError;
    expect(rebuilt).toBeInstanceOf(SandboxError);
    expect(rebuilt.message).toBe("token=[REDACTED]");
    expect(String(rebuilt.stack)).not.toContain("hunter2");
    expect(rebuilt.details).toEqual({ password: "[REDACTED]", note: "Bearer [REDACTED]" });
    expect(deserializeError({ name: "Bearer abcdefghijklmnop", message: "m" }).name).toBe(
      "Bearer [REDACTED]",
    );
  });

  it("copies details: a __proto__ key stays an own key and pollutes nothing", () => {
    const rebuilt = deserializeError(
      '{"code":"ERR_RUNNER_X","message":"m","details":{"__proto__":{"polluted":true}},"__proto__":{"polluted":true}}',
    ) as RunnerError;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(rebuilt.details)).toBe(Object.prototype);
    expect((rebuilt.details as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(rebuilt.details)).toEqual(["__proto__"]);
    expect((serializeError(rebuilt).details as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("rebuilds at most 1000 errors from shared members (and one marker per level cut)", () => {
    let shared: unknown = { message: "leaf" };
    for (let level = 0; level < 5; level += 1) shared = { message: "level", errors: Array(8).fill(shared) };
    let count = 0;
    const visit = (error: unknown): void => {
      count += 1;
      for (const inner of (error as AggregateError).errors ?? []) visit(inner);
    };
    visit(deserializeError(shared));
    expect(count).toBeLessThanOrEqual(1000 + 6);
  });

  it("keeps a malformed code on a plain Error, and an impossible status off CreateosApiError", () => {
    const lower = deserializeError({ code: "ERR_sandbox_x", message: "m" });
    expect(lower).not.toBeInstanceOf(PaperclipError);
    expect(lower).toMatchObject({ code: "ERR_sandbox_x" });
    expect(deserializeError({ code: `ERR_RUNNER_${"X".repeat(200)}`, message: "m" })).not.toBeInstanceOf(
      PaperclipError,
    );
    const status = deserializeError({ code: "ERR_CREATEOS_OUTPUT_CONNECTION", message: "m", status: 1e308 });
    expect(status).toBeInstanceOf(CreateosError);
    expect(status).not.toBeInstanceOf(CreateosApiError);
    expect(deserializeError({ code: "ERR_RUNNER_X", message: "m", retryAfterMs: -1 })).not.toHaveProperty(
      "retryAfterMs",
      -1,
    );
  });

  it("never throws on an input whose traps throw", () => {
    expect(deserializeError(throwingProxy())).toBeInstanceOf(Error);
  });
});
