import { describe, expect, it } from "vitest";

// Attacks on the error classes, serialization and redaction that held when they were first
// tried (a red-team pass), kept so that they keep holding. They go through the built ESM
// entry, as a downstream user loads it. The holes that pass found are tested next to the
// code that closed them (src/serialize/*.test.ts, src/paperclip-error.test.ts).
type ErrorsModule = typeof import("../src/index.js");
const { PaperclipError, SandboxError, RunnerError, CreateosApiError, deserializeError, serializeError } =
  (await import("../dist/index.js")) as ErrorsModule;

const SECRET = "sk-proj-abcdefghijklmnopqrstuvwx";
const coded = (options: ConstructorParameters<typeof SandboxError>[2]) =>
  new SandboxError("ERR_SANDBOX_PROXY_SOCKET_DIR", "outer", options);

describe("serializeError: causes that are not errors", () => {
  const throwing = () => {
    throw new Error("getter");
  };
  it.each([
    ["a string", "boom", "boom"],
    ["null", null, "null"],
    ["a BigInt", 10n, "10"],
    ["a Symbol", Symbol("s"), "Symbol(s)"],
    ["a frozen object", Object.freeze({ a: 1 }), '{"a":1}'],
    [
      "an object whose message, stack and toJSON throw",
      Object.defineProperties(
        {},
        { message: { get: throwing }, stack: { get: throwing }, toJSON: { get: throwing } },
      ),
      "[object Object]",
    ],
    // The function's source, as the runtime prints it.
    ["a function", function named() {}, expect.stringMatching(/^function named\(\) \{\s*\}$/)],
  ])("%s", (_label, cause, message) => {
    expect(serializeError(coded({ cause })).cause).toEqual({ name: "NonError", message });
  });
});

describe("serializeError: shapes", () => {
  it("follows 8 levels of a 10,000-deep cause chain by default", () => {
    let error = new Error("0");
    for (let index = 1; index < 10_000; index += 1) error = new Error(String(index), { cause: error });
    let depth = 0;
    for (let node = serializeError(error); node.cause; node = node.cause) depth += 1;
    expect(depth).toBe(7);
  });

  it("marks an AggregateError that contains itself, and redacts its members", () => {
    const members: unknown[] = [new Error("password=hunter2"), `Bearer ${SECRET}`, { token: SECRET }];
    const aggregate = new AggregateError(members, "many");
    members.push(aggregate);
    (aggregate as { errors: unknown[] }).errors = members;
    const json = serializeError(aggregate);
    expect(json.errors).toEqual([
      { name: "Error", message: "password=[REDACTED]" },
      { name: "NonError", message: "Bearer [REDACTED]" },
      { name: "NonError", message: '{"token":"[REDACTED]"}' },
      { name: "CircularReference", message: "[Circular]" },
    ]);
  });

  it("serializes no stack, so a secret only in a stack is never carried", () => {
    const cause = new Error("plain");
    cause.stack = `Error: ${SECRET}\n    at somewhere`;
    expect(JSON.stringify(coded({ cause }))).not.toContain("sk-proj");
  });

  it("redacts URLs with a password or a token, and a bearer header", () => {
    const details = {
      url: "https://alice:hunter2@example.com/x?token=abc123xyz789&page=2",
      headers: { Authorization: `Bearer ${SECRET}` },
      log: [`OPENAI_API_KEY=${SECRET}`],
    };
    const text = JSON.stringify(serializeError(coded({ details: details as never })));
    expect(text).not.toMatch(/hunter2|abc123xyz789|sk-proj/);
    expect(text).toContain("https://alice:[REDACTED]@example.com/x?token=[REDACTED]&page=2");
  });
});

describe("deserializeError: hostile JSON", () => {
  it("pollutes no prototype, whatever the keys", () => {
    const payloads = [
      '{"__proto__":{"polluted":1},"code":"ERR_RUNNER_X","message":"m"}',
      '{"constructor":{"prototype":{"polluted":1}},"code":"ERR_RUNNER_X","message":"m"}',
      '{"code":"ERR_RUNNER_X","message":"m","details":{"constructor":{"prototype":{"polluted":1}}}}',
      '{"message":"m","errors":[{"__proto__":{"polluted":1}}],"cause":{"__proto__":{"polluted":1}}}',
    ];
    for (const payload of payloads) serializeError(deserializeError(payload));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("picks the class by the code, not by a claimed name", () => {
    const rebuilt = deserializeError({
      name: "RunnerError",
      code: "ERR_SANDBOX_PROXY_SOCKET_DIR",
      message: "m",
    });
    expect(rebuilt).toBeInstanceOf(SandboxError);
    expect(rebuilt).not.toBeInstanceOf(RunnerError);
    expect(deserializeError({ name: "CreateosApiError", code: "ERR_NOT_OURS", message: "m" })).toMatchObject({
      name: "PaperclipError",
      code: "ERR_NOT_OURS",
    });
  });

  it("takes wrong types for every field as absent", () => {
    const rebuilt = deserializeError({
      name: 5,
      code: "ERR_RUNNER_X",
      message: { a: 1 },
      details: [1, 2],
      retryable: "yes",
      retryAfterMs: "10",
      status: "503",
      operation: 7,
    }) as InstanceType<typeof RunnerError>;
    expect(rebuilt).toBeInstanceOf(RunnerError);
    expect(rebuilt).toMatchObject({ message: "", details: {}, retryable: false });
    expect(rebuilt.retryAfterMs).toBeUndefined();
    expect(deserializeError({ name: 5, code: 7, message: null, cause: 5, errors: "x" })).toMatchObject({
      name: "Error",
      message: "",
      cause: expect.objectContaining({ message: "5" }),
    });
  });

  it("keeps the status and operation of a real API error", () => {
    const api = deserializeError(
      JSON.stringify(
        new CreateosApiError("ERR_CREATEOS_OUTPUT_CONNECTION", "m", { status: 503, operation: "op" }),
      ),
    );
    expect(api).toMatchObject({ status: 503, operation: "op" });
    expect(PaperclipError.is(api, "ERR_CREATEOS_OUTPUT_CONNECTION")).toBe(true);
  });
});
