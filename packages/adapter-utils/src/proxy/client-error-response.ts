/** What the proxy answers a request Node's HTTP parser rejected, before any policy runs. */
export interface ClientErrorResponse {
  readonly status: string;
  /** The `X-Proxy-Error` token, also the decision's reason. */
  readonly code: string;
  readonly message: string;
}

/** The answer to a parser error (`clientError`'s `error.code`): too large, too slow, or malformed. */
export function clientErrorResponse(code: string | undefined): ClientErrorResponse {
  if (code === "HPE_HEADER_OVERFLOW") {
    return {
      status: "431 Request Header Fields Too Large",
      code: "request_header_too_large",
      message: "Request headers exceed the Paperclip sandbox proxy limit.",
    };
  }
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return {
      status: "408 Request Timeout",
      code: "request_timeout",
      message: "Paperclip sandbox proxy did not receive a complete request head in time.",
    };
  }
  return {
    status: "400 Bad Request",
    code: "malformed_request",
    message: "Paperclip sandbox proxy could not parse the request.",
  };
}
