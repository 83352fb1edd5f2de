import { describe, expect, it } from "vitest";
import { clientErrorResponse } from "./client-error-response.js";

describe("clientErrorResponse", () => {
  it("answers oversized heads with 431 and slow ones with 408", () => {
    expect(clientErrorResponse("HPE_HEADER_OVERFLOW")).toMatchObject({
      status: "431 Request Header Fields Too Large",
      code: "request_header_too_large",
    });
    expect(clientErrorResponse("ERR_HTTP_REQUEST_TIMEOUT")).toMatchObject({
      status: "408 Request Timeout",
      code: "request_timeout",
    });
  });

  it("answers every other parser error, or none, with 400 malformed_request", () => {
    for (const code of ["HPE_INVALID_METHOD", "HPE_INVALID_URL", undefined]) {
      expect(clientErrorResponse(code)).toEqual({
        status: "400 Bad Request",
        code: "malformed_request",
        message: "Paperclip sandbox proxy could not parse the request.",
      });
    }
  });
});
