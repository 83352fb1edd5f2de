import { describe, expect, it } from "vitest";
import { withCommandStartupItemOnBothOrNeither } from "../src/codex-startup-failure.js";
import type { CommittedEvent, ScenarioOutcome } from "../src/run-scenario.js";

const COMMAND = "echo hi from the shell";

const event = (eventType: string, payload: Record<string, unknown> = {}) =>
  ({ eventType, payload, priority: 0, sourceSeq: 0, sourceEventId: eventType }) as CommittedEvent;
const outcomeOf = (events: CommittedEvent[]) => ({ events }) as unknown as ScenarioOutcome;
const typesOf = (outcome: ScenarioOutcome) => outcome.events.map((entry) => entry.eventType);

const commandItem = (name: string, transport = "process") => [
  event("tool.execution.started", { transport, name, status: "running" }),
  event("tool.execution.completed", { transport, name, status: "failed", exitCode: 1 }),
];
const turn = (...middle: CommittedEvent[][]) =>
  outcomeOf([event("turn.started"), ...middle.flat(), event("turn.completed")]);

describe("withCommandStartupItemOnBothOrNeither", () => {
  it("leaves the command's item out of both streams when only one has it", () => {
    const upstream = turn(commandItem(`/bin/bash -lc '${COMMAND}'`));
    const ours = turn();
    const canonical = withCommandStartupItemOnBothOrNeither({ upstream, ours }, COMMAND);
    expect(typesOf(canonical.upstream)).toEqual(["turn.started", "turn.completed"]);
    expect(typesOf(canonical.ours)).toEqual(["turn.started", "turn.completed"]);
    const swapped = withCommandStartupItemOnBothOrNeither({ upstream: ours, ours: upstream }, COMMAND);
    expect(typesOf(swapped.ours)).toEqual(["turn.started", "turn.completed"]);
  });

  it("keeps the items when both streams have them, so they are still compared", () => {
    const upstream = turn(commandItem(`/bin/bash -lc '${COMMAND}'`));
    const ours = turn(commandItem(`/bin/bash -lc '${COMMAND}'`));
    const outcomes = { upstream, ours };
    expect(withCommandStartupItemOnBothOrNeither(outcomes, COMMAND)).toBe(outcomes);
  });

  it("keeps other commands' items and tool calls that are not processes", () => {
    const upstream = turn(
      commandItem(`/bin/bash -lc '${COMMAND}'`),
      commandItem("/bin/bash -lc 'ls'"),
      commandItem(COMMAND, "dynamic"),
    );
    const ours = turn(commandItem("/bin/bash -lc 'ls'"), commandItem(COMMAND, "dynamic"));
    const canonical = withCommandStartupItemOnBothOrNeither({ upstream, ours }, COMMAND);
    expect(canonical.upstream.events).toEqual(ours.events);
    expect(canonical.ours.events).toEqual(ours.events);
  });
});
