import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codexNotificationEvents } from "./codex-notification-events.js";
import { codexGoal } from "./session-goals.js";

// What a hostile provider may put in a notification's params: values of any JSON shape where
// the runner expects a string or an object, keys that name Object.prototype's members.

const context = { provider: "codex", threadId: "thread-1", activeTurnId: "turn-2" };
const bound = { threadId: "thread-1", turnId: "turn-2" };
const METHODS = [
  "turn/started",
  "turn/completed",
  "item/started",
  "item/completed",
  "item/agentMessage/delta",
  "turn/plan/updated",
  "thread/tokenUsage/updated",
  "error",
  "warning",
  "thread/compacted",
];
const prototypeKeys = fc.constantFrom("constructor", "toString", "__proto__", "valueOf", "hasOwnProperty");
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  prototypeKeys,
  fc.dictionary(
    fc.oneof(prototypeKeys, fc.constantFrom("id", "type", "status", "text", "step")),
    fc.oneof(prototypeKeys, fc.constantFrom(false, null), fc.jsonValue()),
  ),
);
const params = fc
  .dictionary(
    fc.constantFrom(
      "item",
      "turn",
      "itemId",
      "delta",
      "plan",
      "explanation",
      "tokenUsage",
      "message",
      "error",
    ),
    fc.oneof(hostileValue, fc.array(hostileValue, { maxLength: 3 })),
  )
  .map((extra) => ({ ...bound, ...extra }));

/** The outcome holds only what JSON carries (a function read off a prototype would vanish from the event). */
const jsonOnly = (outcome: unknown): boolean =>
  JSON.stringify(JSON.parse(JSON.stringify(outcome))) === JSON.stringify(outcome) &&
  !JSON.stringify(outcome, (_key, value) => (typeof value === "function" ? "FUNCTION" : value)).includes(
    "FUNCTION",
  );

describe("codexNotificationEvents on hostile params", () => {
  it("reads a null plan step, an id object without toString, prototype names as kinds and statuses, as upstream's lookups would", () => {
    const plan = codexNotificationEvents(
      "turn/plan/updated",
      { ...bound, plan: [null, { step: "b", status: "constructor" }] },
      context,
    );
    expect(plan).toMatchObject({
      kind: "events",
      events: [
        {
          payload: {
            // Upstream reads a null step as one without text, which it leaves out.
            steps: [{ stepId: "step-2", body: "b", status: "pending" }],
          },
        },
      ],
    });
    const delta = codexNotificationEvents(
      "item/agentMessage/delta",
      { ...bound, itemId: { toString: false }, delta: "x" },
      context,
    );
    expect(delta).toMatchObject({ events: [{ payload: { itemId: "codex-message" } }] });
    const item = codexNotificationEvents(
      "item/started",
      { ...bound, item: { type: "constructor", id: { toString: false } } },
      context,
    );
    expect(item).toMatchObject({
      events: [{ eventType: "item.started", payload: { kind: "constructor", itemId: "codex-item" } }],
    });
    expect(jsonOnly(item)).toBe(true);
    expect(codexGoal({ objective: "ship", status: "constructor" }, false)?.status).toBe("constructor");
  });

  it("gives every id it carries the published id form, whatever the provider named it", () => {
    // The server's event schema (`$defs/id`): an event whose id breaks it closes the runner's connection.
    const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,159}$/;
    const ids = (outcome: ReturnType<typeof codexNotificationEvents>): unknown[] =>
      outcome.kind === "events"
        ? outcome.events.flatMap((event) =>
            ["executionId", "itemId", "planId", "compactionId", "noticeId"]
              .filter((key) => key in event.payload)
              .map((key) => event.payload[key]),
          )
        : [];
    const odd = fc.oneof(fc.string(), fc.constantFrom("", "a b", "/x", "é", "x".repeat(300)), fc.integer());
    for (const type of ["commandExecution", "mcpToolCall", "dynamicToolCall", "agentMessage"])
      fc.assert(
        fc.property(odd, (id) => {
          const outcome = codexNotificationEvents(
            "item/completed",
            { ...bound, item: { type, id } },
            context,
          );
          return ids(outcome).length === 1 && ids(outcome).every((value) => ID.test(String(value)));
        }),
        { numRuns: 200 },
      );
    expect(
      ids(
        codexNotificationEvents(
          "item/started",
          { ...bound, item: { type: "commandExecution", id: "call 1/2" } },
          context,
        ),
      ),
    ).toEqual(["call-1-2"]);
  });

  it("never throws and yields only JSON, whatever the params hold", () => {
    for (const method of METHODS) {
      fc.assert(
        fc.property(params, (given) => jsonOnly(codexNotificationEvents(method, given, context))),
        { numRuns: 300 },
      );
    }
  });
});
