import { describe, expect, it } from "vitest";
import { redirectError, statusError, transportFailure } from "./attempt-errors.js";

describe("attempt errors", () => {
  it("a status error says the status and the operation, retryable as the policy says", () => {
    const busy = statusError("output connection", 503, 1_000);
    expect(busy).toMatchObject({ code: "ERR_CREATEOS_HTTP_STATUS", status: 503, retryable: true });
    expect(busy.message).toBe("CreateOS request failed (HTTP 503) during output connection.");
    expect(busy.retryAfterMs).toBe(1_000);
    expect(statusError("stdin close", 403, undefined).retryable).toBe(false);
  });
  it("a redirect is refused by name", () => {
    expect(redirectError("file transfer").message).toBe(
      "CreateOS request was redirected during file transfer; redirects are refused.",
    );
  });
  it("a transport failure is the caller's reason first, then the deadline, then the connection", () => {
    const caller = new AbortController();
    caller.abort("stop");
    const base = { operation: "stdin close", timedOut: true, retryable: true, reached: true } as const;
    expect(transportFailure({ ...base, callerSignal: caller.signal })).toBe("stop");
    expect(transportFailure({ ...base, callerSignal: undefined })).toMatchObject({
      code: "ERR_CREATEOS_REQUEST_TIMEOUT",
      retryable: true,
    });
    const refused = transportFailure({ ...base, callerSignal: undefined, timedOut: false, retryable: false });
    expect(refused).toMatchObject({ code: "ERR_CREATEOS_CONNECTION", retryable: false });
    expect((refused as Error).message).toBe("CreateOS connection failed.");
    expect(refused).toMatchObject({ details: {} });
    const unreached = transportFailure({ ...base, callerSignal: undefined, timedOut: false, reached: false });
    expect(unreached).toMatchObject({ code: "ERR_CREATEOS_CONNECTION", details: { reached: false } });
  });
});
