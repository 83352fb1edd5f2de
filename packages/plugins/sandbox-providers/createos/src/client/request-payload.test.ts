import { describe, expect, it } from "vitest";
import { ACCEPT, requestPayload } from "./request-payload.js";

describe("requestPayload", () => {
  it("puts the key, the mode's Accept and no encoding on every call, and no body when there is none", () => {
    expect(requestPayload("k-1", {}, "stream")).toEqual({
      headers: { "X-Api-Key": "k-1", Accept: ACCEPT.stream, "Accept-Encoding": "identity" },
      body: undefined,
    });
  });
  it("sends JSON as JSON", () => {
    const payload = requestPayload("k", { json: { cmd: "/bin/bash", args: ["-c", "x"] } }, "json");
    expect(payload.headers["Content-Type"]).toBe("application/json");
    expect(payload.body).toBe('{"cmd":"/bin/bash","args":["-c","x"]}');
  });
  it("sends bytes and text as they are, and a streamed upload without an in-memory body", () => {
    const bytes = new Uint8Array([1, 2]);
    expect(requestPayload("k", { bytes }, "json").body).toBe(bytes);
    expect(requestPayload("k", { text: "marker ü" }, "json").body).toBe("marker ü");
    const upload = requestPayload("k", { upload: async function* () {} }, "json");
    expect(upload.headers["Content-Type"]).toBe("application/octet-stream");
    expect(upload.body).toBeUndefined();
  });
  it("asks a stream for NDJSON and a download for bytes, JSON (errors) second", () => {
    expect(ACCEPT.stream).toBe("application/x-ndjson, application/json;q=0.5");
    expect(ACCEPT.download).toBe("application/octet-stream, application/json;q=0.5");
  });
});
