import { describe, expect, it } from "vitest";
import { serdeJson } from "./serde-json.js";

describe("serdeJson", () => {
  it("writes a tool result's keys as serde_json does: sorted at every depth", () => {
    const result = {
      success: true,
      contentItems: [
        { type: "inputText", text: "the chart:" },
        { type: "inputImage", imageUrl: "data:image/png;base64,AAAA" },
      ],
    };
    expect(serdeJson(result)).toBe(
      '{"contentItems":[{"text":"the chart:","type":"inputText"},{"imageUrl":"data:image/png;base64,AAAA","type":"inputImage"}],"success":true}',
    );
    expect(serdeJson({ success: true, contentItems: [] })).toBe('{"contentItems":[],"success":true}');
  });

  it("orders keys by their UTF-8 bytes, keeps a __proto__ key as data and scalars as JSON writes them", () => {
    // U+FF21 (3 bytes, EF BC A1) sorts before U+1F600 (4 bytes, F0 …) by bytes, after it by UTF-16 units.
    expect(serdeJson({ "\u{1F600}": 1, "\uFF21": 2, B: 3, a: 4 })).toBe('{"B":3,"a":4,"Ａ":2,"😀":1}');
    expect(serdeJson(JSON.parse('{"__proto__":{"z":1,"y":2}}'))).toBe('{"__proto__":{"y":2,"z":1}}');
    expect(serdeJson("text")).toBe('"text"');
    expect(serdeJson(null)).toBe("null");
    expect(serdeJson(undefined)).toBe("null");
    expect(serdeJson({ kept: 1, dropped: undefined })).toBe('{"kept":1}');
  });
});
