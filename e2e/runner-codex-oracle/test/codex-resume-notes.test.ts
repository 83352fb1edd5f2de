import { describe, expect, it } from "vitest";
import { withResumeNotesAfterAcceptance } from "../src/codex-resume-notes.js";
import type { CommittedEvent, ScenarioOutcome } from "../src/run-scenario.js";

const event = (eventType: string, payload: Record<string, unknown> = {}) =>
  ({ eventType, payload, priority: 0, sourceSeq: 0, sourceEventId: eventType }) as CommittedEvent;
const outcomeOf = (events: CommittedEvent[]) => ({ events }) as unknown as ScenarioOutcome;
const typesOf = (outcome: ScenarioOutcome) => outcome.events.map((entry) => entry.eventType);

const USAGE_NOTE = event("harness.diagnostic", { code: "codex_resume_usage_snapshot" });

describe("withResumeNotesAfterAcceptance", () => {
  it("moves the next turn's acceptance before Codex's resume notes that came first", () => {
    const moved = withResumeNotesAfterAcceptance(
      outcomeOf([
        event("turn.failed"),
        USAGE_NOTE,
        event("session.goal.cleared"),
        event("turn.accepted"),
        event("turn.started"),
      ]),
    );
    expect(typesOf(moved)).toEqual([
      "turn.failed",
      "turn.accepted",
      "harness.diagnostic",
      "session.goal.cleared",
      "turn.started",
    ]);
  });

  it("leaves notes after the acceptance, other diagnostics and the goal snapshot where they are", () => {
    const events = [
      event("session.goal.snapshot"),
      event("harness.diagnostic", { code: "provider_startup_ownership" }),
      event("turn.accepted"),
      USAGE_NOTE,
      event("session.goal.cleared"),
    ];
    expect(typesOf(withResumeNotesAfterAcceptance(outcomeOf(events)))).toEqual(
      events.map((e) => e.eventType),
    );
  });
});
