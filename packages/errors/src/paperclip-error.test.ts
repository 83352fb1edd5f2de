import { format, inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { CreateosApiError } from "./families/createos-api-error.js";
import { CreateosError } from "./families/createos-error.js";
import { RunnerError } from "./families/runner-error.js";
import { SandboxError } from "./families/sandbox-error.js";
import { PaperclipError } from "./paperclip-error.js";

describe("PaperclipError", () => {
  it("carries code, message, cause, details and retry hints", () => {
    const cause = new Error("EACCES");
    const error = new SandboxError("ERR_SANDBOX_PROXY_SOCKET_DIR", "Unable to create.", {
      cause,
      details: { attempts: [{ baseDir: "/tmp", reason: "EACCES" }] },
      retryable: true,
      retryAfterMs: 50,
    });
    expect(error.code).toBe("ERR_SANDBOX_PROXY_SOCKET_DIR");
    expect(error.message).toBe("Unable to create.");
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ attempts: [{ baseDir: "/tmp", reason: "EACCES" }] });
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(50);
    expect(error.stack).toContain("Unable to create.");
  });

  it("defaults details to {} and retryable to false, and omits cause when none is given", () => {
    const error = new RunnerError("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS", "m");
    expect(error.details).toEqual({});
    expect(error.retryable).toBe(false);
    expect("cause" in error).toBe(false);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it("is named after its class and prints Name [CODE]: message", () => {
    const error = new CreateosError(
      "ERR_CREATEOS_OUTPUT_CONNECTION",
      "CreateOS process output connection failed.",
    );
    expect(error.name).toBe("CreateosError");
    expect(error.toString()).toBe(
      "CreateosError [ERR_CREATEOS_OUTPUT_CONNECTION]: CreateOS process output connection failed.",
    );
  });

  it("keeps instanceof along the class chain and not across families", () => {
    const api = new CreateosApiError("ERR_CREATEOS_OUTPUT_CONNECTION", "x", {
      status: 503,
      operation: "output connection",
    });
    expect(api).toBeInstanceOf(CreateosApiError);
    expect(api).toBeInstanceOf(CreateosError);
    expect(api).toBeInstanceOf(PaperclipError);
    expect(api).toBeInstanceOf(Error);
    expect(api).not.toBeInstanceOf(SandboxError);
    expect(new CreateosError("ERR_CREATEOS_OUTPUT_CONNECTION", "x")).not.toBeInstanceOf(CreateosApiError);
    expect(new Error("plain")).not.toBeInstanceOf(PaperclipError);
    expect(api.status).toBe(503);
    expect(api.operation).toBe("output connection");
  });

  it("recognises an instance branded by another copy of the package", () => {
    // What a second copy produces: the same global symbols on an unrelated object.
    const foreign = Object.assign(Object.create(Error.prototype), { code: "ERR_SANDBOX_PROXY_SOCKET_DIR" });
    for (const name of [
      "paperclipai.error",
      "paperclipai.error.PaperclipError",
      "paperclipai.error.SandboxError",
    ]) {
      foreign[Symbol.for(name)] = true;
    }
    expect(foreign).toBeInstanceOf(SandboxError);
    expect(foreign).toBeInstanceOf(PaperclipError);
    expect(foreign).not.toBeInstanceOf(RunnerError);
    expect(PaperclipError.is(foreign, "ERR_SANDBOX_PROXY_SOCKET_DIR")).toBe(true);
  });

  it("is() narrows by one code or a list of codes", () => {
    const error = new RunnerError("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS", "m");
    expect(PaperclipError.is(error)).toBe(true);
    expect(PaperclipError.is(error, "ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS")).toBe(true);
    expect(PaperclipError.is(error, "ERR_SANDBOX_PROXY_SOCKET_DIR")).toBe(false);
    expect(
      PaperclipError.is(error, ["ERR_SANDBOX_PROXY_SOCKET_DIR", "ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS"]),
    ).toBe(true);
    expect(PaperclipError.is(new Error("x"))).toBe(false);
    expect(PaperclipError.is(null)).toBe(false);
    expect(PaperclipError.is({ code: "ERR_SANDBOX_PROXY_SOCKET_DIR" })).toBe(false);
  });

  it("serializes with toJSON, redacting every string", () => {
    const error = new CreateosApiError("ERR_CREATEOS_OUTPUT_CONNECTION", "failed with token abc-123", {
      status: 429,
      operation: "output connection",
      retryable: true,
      retryAfterMs: 1000,
      details: { hint: "password=hunter2", attempts: 4 },
      cause: new Error("Bearer abcdefghijklmnop"),
    });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "CreateosApiError",
      code: "ERR_CREATEOS_OUTPUT_CONNECTION",
      message: "failed with token [REDACTED]",
      details: { hint: "password=[REDACTED]", attempts: 4 },
      retryable: true,
      retryAfterMs: 1000,
      status: 429,
      operation: "output connection",
      cause: { name: "Error", message: "Bearer [REDACTED]" },
    });
  });
});

describe("PaperclipError never shows a raw secret", () => {
  const secret = "sk-proj-abcdefghijklmnopqrstuvwx";

  it("redacts its message where it is built, so String(), stack and toJSON agree", () => {
    const error = new SandboxError("ERR_SANDBOX_PROXY_SOCKET_DIR", `Invalid API key: ${secret}`);
    expect(error.message).toBe("Invalid API key: [REDACTED]");
    expect(String(error)).toBe("SandboxError [ERR_SANDBOX_PROXY_SOCKET_DIR]: Invalid API key: [REDACTED]");
    expect(error.stack).not.toContain(secret);
  });

  it("prints redacted details and causes in util.inspect and console.log's formatting", () => {
    const error = new CreateosApiError("ERR_CREATEOS_OUTPUT_CONNECTION", "failed", {
      status: 401,
      operation: "output connection",
      details: { password: "hunter2", headers: { Cookie: "sid=abcdef123456" } },
      cause: new AggregateError([new Error(`token=${secret}`)], "inner", {
        cause: new TypeError("Bearer abcdefghijklmnop"),
      }),
    });
    for (const text of [inspect(error, { depth: Infinity }), format("%o", error), format("%O", error)]) {
      expect(text).not.toMatch(/hunter2|abcdef123456|abcdefghijklmnop|sk-proj/);
      expect(text).toContain("[REDACTED]");
    }
    const shown = inspect(error, { depth: Infinity });
    expect(shown).toContain("CreateosApiError: failed\n    at ");
    expect(shown).toContain("status: 401");
    expect(shown).toContain("TypeError: Bearer [REDACTED]");
  });

  it("follows util.inspect's depth like Node's own rendering", () => {
    const error = new RunnerError("ERR_RUNNER_DIAGNOSTICS_DIR_PERMISSIONS", "m", {
      details: { a: { b: { c: { d: 1 } } } },
    });
    expect(inspect(error, { depth: 0 })).toContain("details: [Object]");
    expect(inspect(error)).toContain("details: { a: { b: [Object] } }");
  });
});

describe("PaperclipError.is and instanceof on a hostile thrown value", () => {
  it("answer false instead of throwing, so a catch block keeps working", () => {
    const trap = () => {
      throw new Error("trap");
    };
    const proxy = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap });
    const getter = Object.defineProperty({}, Symbol.for("paperclipai.error"), { get: trap });
    for (const value of [proxy, getter]) {
      expect(PaperclipError.is(value)).toBe(false);
      expect(PaperclipError.is(value, "ERR_SANDBOX_PROXY_SOCKET_DIR")).toBe(false);
      expect(value instanceof SandboxError).toBe(false);
    }
  });
});
