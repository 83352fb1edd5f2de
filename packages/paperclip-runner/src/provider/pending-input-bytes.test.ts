import { describe, expect, it } from "vitest";
import { opencodeRequest } from "../../test/helpers/opencode-scripts.js";
import { sizedQuestionSet } from "../../test/helpers/sized-question-set.js";
import { MAX_PENDING_INPUT_BYTES, opencodePendingBytes } from "./pending-input-bytes.js";

const expand = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (_key, item) => {
      const fill = typeof item === "string" ? /^\$fill:(\d+)$/.exec(item) : null;
      return fill === null ? item : "x".repeat(Number(fill[1]));
    }),
  );

describe("opencodePendingBytes", () => {
  it("counts the fake proxy's request as upstream's runner was measured to: twice its set, and 358", () => {
    // The fake proxy's ids (`que_0`, its first turn `turn-1`) and prompt, as the bisection used them.
    for (const size of [232_837, 299_414, 419_250]) {
      const request = expand(
        opencodeRequest({
          requestId: "que_0",
          itemId: "que_0",
          turnId: "turn-1",
          input: sizedQuestionSet(size),
        }),
      );
      expect(opencodePendingBytes(request as Record<string, unknown>)).toBe(2 * size + 358);
    }
    // Where the bisection found upstream's bound: nine of 232 837 bytes fit, nine of 232 838 do not.
    expect(9 * (2 * 232_837 + 358)).toBeLessThanOrEqual(MAX_PENDING_INPUT_BYTES);
    expect(9 * (2 * 232_838 + 358)).toBeGreaterThan(MAX_PENDING_INPUT_BYTES);
  });

  it("counts the request's ids and prompt in UTF-8 bytes", () => {
    const base = opencodePendingBytes(opencodeRequest({ turnId: "turn-1" }));
    expect(opencodePendingBytes(opencodeRequest({ turnId: "turn-1", requestId: "que_1é" }))).toBe(base + 2);
    expect(opencodePendingBytes(opencodeRequest({ turnId: "turn-1", prompt: "" }))).toBe(
      base - Buffer.byteLength("OpenCode requests user input."),
    );
  });
});
