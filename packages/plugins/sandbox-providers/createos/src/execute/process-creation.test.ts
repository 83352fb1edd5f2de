import { CreateosApiError, CreateosError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { isDefiniteRejection } from "./process-creation.js";

const status = (code: number) =>
  new CreateosApiError("ERR_CREATEOS_HTTP_STATUS", `HTTP ${code}`, {
    status: code,
    operation: "process creation",
    retryable: false,
  });

describe("isDefiniteRejection", () => {
  it("a 4xx created nothing", () => {
    expect(isDefiniteRejection(status(400))).toBe(true);
    expect(isDefiniteRejection(status(409))).toBe(true);
  });
  it("a 5xx, a lost reply or an unreadable one may have created a process", () => {
    expect(isDefiniteRejection(status(502))).toBe(false);
    expect(
      isDefiniteRejection(new CreateosError("ERR_CREATEOS_CONNECTION", "CreateOS connection failed.")),
    ).toBe(false);
    expect(isDefiniteRejection(new TypeError("fetch failed"))).toBe(false);
  });
});
