import { CreateosApiError, CreateosError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { budgetError, classifyFailure, evicted, retryAfterOf, STALLED } from "./follow-failure.js";

const live = new AbortController().signal;

function apiError(status: number, retryAfterMs?: number): CreateosApiError {
  return new CreateosApiError("ERR_CREATEOS_HTTP_STATUS", `HTTP ${status}`, {
    status,
    operation: "output connection",
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

describe("classifyFailure", () => {
  it("a stall, a retryable status, a lost connection, a timeout and a broken body are drops", () => {
    expect(classifyFailure(STALLED, live)).toEqual({ kind: "stalled" });
    expect(classifyFailure(apiError(503, 2_000), live)).toEqual({
      kind: "connection",
      status: 503,
      retryAfterMs: 2_000,
    });
    expect(classifyFailure(apiError(500), live)).toMatchObject({ kind: "connection", status: 500 });
    const dropped = { kind: "connection", status: null, retryAfterMs: undefined };
    expect(classifyFailure(new CreateosError("ERR_CREATEOS_CONNECTION", "lost"), live)).toEqual(dropped);
    expect(classifyFailure(new CreateosError("ERR_CREATEOS_REQUEST_TIMEOUT", "late"), live)).toEqual(dropped);
    expect(classifyFailure(new TypeError("terminated"), live)).toEqual(dropped);
    expect(classifyFailure(new DOMException("aborted", "AbortError"), live)).toEqual(dropped);
  });
  it("a 410 is an eviction: the output is gone, no reconnect brings it back", () => {
    expect(() => classifyFailure(apiError(410), live)).toThrow(
      expect.objectContaining({ code: "ERR_CREATEOS_OUTPUT_EVICTED" }),
    );
  });
  it("any other status, coded error or plain error is rethrown as it is", () => {
    for (const error of [
      apiError(404),
      new CreateosError("ERR_CREATEOS_SEQUENCE_GAP", "gap"),
      new Error("x"),
    ]) {
      expect(() => classifyFailure(error, live)).toThrow(error);
    }
  });
  it("the caller's abort wins over the failure it caused", () => {
    const caller = new AbortController();
    caller.abort("stop");
    let thrown: unknown;
    try {
      classifyFailure(STALLED, caller.signal);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe("stop");
  });
});

describe("retryAfterOf", () => {
  it("is the server's hint only for the statuses whose hint is honoured", () => {
    expect(retryAfterOf({ kind: "connection", status: 429, retryAfterMs: 500 })).toBe(500);
    expect(retryAfterOf({ kind: "connection", status: 503, retryAfterMs: 500 })).toBe(500);
    expect(retryAfterOf({ kind: "connection", status: 502, retryAfterMs: 500 })).toBeUndefined();
    expect(retryAfterOf({ kind: "connection", status: null, retryAfterMs: undefined })).toBeUndefined();
    expect(retryAfterOf({ kind: "stalled" })).toBeUndefined();
  });
});

describe("budgetError", () => {
  const facts = { attempts: 7, lastStatus: 503, cursor: 12, processId: "p1" };
  it("is a failed connection, retryable, with where following stood", () => {
    const error = budgetError(facts, { kind: "connection", status: 503, retryAfterMs: undefined });
    expect(error).toMatchObject({
      code: "ERR_CREATEOS_OUTPUT_CONNECTION",
      message: "CreateOS process output connection failed.",
      retryable: true,
      details: facts,
    });
    expect(budgetError(facts, { kind: "stalled" }).code).toBe("ERR_CREATEOS_OUTPUT_CONNECTION");
  });
  it("says the stream ended without an exit when that was the last failure", () => {
    expect(budgetError(facts, { kind: "ended" })).toMatchObject({
      code: "ERR_CREATEOS_STREAM_ENDED",
      message: "CreateOS process stream ended without an exit status.",
      retryable: true,
      details: facts,
    });
  });
});

describe("evicted", () => {
  it("names the lost output", () => {
    expect(evicted().message).toBe("CreateOS process output was evicted before it could be read.");
  });
});
