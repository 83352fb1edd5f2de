import { describe, expect, it } from "vitest";
import { formatRawProxyError } from "./proxy-error.js";

describe("formatRawProxyError", () => {
  it("is upstream's CONNECT denial plus X-Proxy-Error", () => {
    const body =
      '{"error":{"code":"network_target_denied","message":"Network target denied by Paperclip sandbox policy."}}\n';
    expect(
      formatRawProxyError(
        "403 Forbidden",
        "network_target_denied",
        "Network target denied by Paperclip sandbox policy.",
        "not_allowlisted",
      ),
    ).toBe(
      [
        "HTTP/1.1 403 Forbidden",
        "Connection: close",
        "Content-Type: application/json; charset=utf-8",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "X-Proxy-Error: not_allowlisted",
        "",
        body,
      ].join("\r\n"),
    );
  });

  it("counts Content-Length in bytes and defaults the reason to the code", () => {
    const raw = formatRawProxyError("400 Bad Request", "malformed_request", "ünïcödé");
    const [head, body] = raw.split("\r\n\r\n") as [string, string];
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
    expect(head).toContain("X-Proxy-Error: malformed_request");
    expect(JSON.parse(body)).toEqual({ error: { code: "malformed_request", message: "ünïcödé" } });
  });
});
