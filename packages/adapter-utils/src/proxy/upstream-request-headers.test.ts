import { describe, expect, it } from "vitest";
import { upstreamRequestHeaders } from "./upstream-request-headers.js";

describe("upstreamRequestHeaders", () => {
  it("drops hop-by-hop headers and the client's Host, and sets the target's", () => {
    expect(
      upstreamRequestHeaders(
        ["host", "evil", "Accept", "*/*", "Proxy-Authorization", "x", "Connection", "keep-alive"],
        "example.com:8080",
        false,
      ),
    ).toEqual(["Accept", "*/*", "Host", "example.com:8080"]);
  });

  it("frames a chunked body again, since Transfer-Encoding itself is hop-by-hop", () => {
    expect(upstreamRequestHeaders(["Transfer-Encoding", "chunked"], "a.test", true)).toEqual([
      "Host",
      "a.test",
      "Transfer-Encoding",
      "chunked",
    ]);
  });

  it("keeps a Content-Length body framed by its own header", () => {
    expect(upstreamRequestHeaders(["Content-Length", "5"], "a.test", false)).toEqual([
      "Content-Length",
      "5",
      "Host",
      "a.test",
    ]);
  });

  it("keeps Content-Length when Connection or Proxy-Connection names it: dropped, the body went unframed", () => {
    expect(
      upstreamRequestHeaders(
        ["Content-Length", "5", "Connection", "close, Content-Length", "Proxy-Connection", "content-length"],
        "a.test",
        false,
      ),
    ).toEqual(["Content-Length", "5", "Host", "a.test"]);
  });
});
