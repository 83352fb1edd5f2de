import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripHopByHopHeaders } from "./hop-by-hop.js";

const HOP = [
  "Connection",
  "Proxy-Connection",
  "Proxy-Authorization",
  "Keep-Alive",
  "TE",
  "Trailer",
  "Transfer-Encoding",
  "Upgrade",
];

describe("stripHopByHopHeaders", () => {
  it("drops the fixed hop-by-hop set in any case and keeps the rest in order", () => {
    const raw = [
      "Host",
      "a.test",
      "connection",
      "keep-alive",
      "PROXY-CONNECTION",
      "keep-alive",
      "Proxy-Authorization",
      "Basic c2VjcmV0",
      "Keep-Alive",
      "timeout=5",
      "te",
      "trailers",
      "Trailer",
      "Expires",
      "Transfer-Encoding",
      "chunked",
      "Upgrade",
      "websocket",
      "Accept",
      "*/*",
      "X-Two",
      "1",
      "X-Two",
      "2",
    ];
    expect(stripHopByHopHeaders(raw)).toEqual([
      "Host",
      "a.test",
      "Accept",
      "*/*",
      "X-Two",
      "1",
      "X-Two",
      "2",
    ]);
  });

  it("drops the headers that Connection and Proxy-Connection name", () => {
    const raw = [
      "Connection",
      "close, X-Secret-Hop ,x-other",
      "X-Secret-Hop",
      "1",
      "X-Other",
      "2",
      "Proxy-Connection",
      "X-Third",
      "x-third",
      "3",
      "X-Kept",
      "4",
    ];
    expect(stripHopByHopHeaders(raw)).toEqual(["X-Kept", "4"]);
  });

  it("keeps an unlistable header that Connection names, but not one of the fixed set", () => {
    const raw = ["Connection", "Content-Length, TE", "Content-Length", "5", "TE", "trailers"];
    expect(stripHopByHopHeaders(raw, ["content-length", "te"])).toEqual(["Content-Length", "5"]);
  });

  it("never returns a hop-by-hop header or a header Connection lists", () => {
    const name = fc.oneof(
      fc.constantFrom(...HOP, "X-A", "x-b", "Accept"),
      fc.stringMatching(/^[A-Za-z-]{1,12}$/),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string()), { maxLength: 20 }), (pairs) => {
        const raw = pairs.flat();
        const listed = new Set<string>();
        for (const [n, v] of pairs) {
          if (n.toLowerCase() === "connection" || n.toLowerCase() === "proxy-connection") {
            for (const token of v.split(",")) listed.add(token.trim().toLowerCase());
          }
        }
        const kept = stripHopByHopHeaders(raw);
        for (let i = 0; i < kept.length; i += 2) {
          const lower = kept[i]!.toLowerCase();
          expect(HOP.map((h) => h.toLowerCase())).not.toContain(lower);
          expect(listed.has(lower)).toBe(false);
        }
        const expected = pairs.filter(
          ([n]) => !HOP.map((h) => h.toLowerCase()).includes(n.toLowerCase()) && !listed.has(n.toLowerCase()),
        );
        expect(kept).toEqual(expected.flat());
      }),
    );
  });
});
