import { describe, expect, it } from "vitest";
import {
  closeSteps,
  eventTypes,
  firstEvent,
  type Step,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { command, expectSessionFailedOnProtocol } from "./helpers/command-differential.js";
import {
  driveOpencode,
  FAKE_OPENCODE_PROXY,
  launchProfile,
  opencodePrepare,
} from "./helpers/opencode-runs.js";
import { askStep, opencodeRequest, resultStep, runResult, scriptedTurn } from "./helpers/opencode-scripts.js";
import { VALIDATED_QUESTION } from "./helpers/opencode-text-validation-cases.js";
import { upstreamRunner } from "./helpers/upstream-runner.js";

// Differs on purpose (docs/compatibility.md): what the OpenCode proxy sends that upstream's runner
// cannot take makes it exit 1 with nothing committed, so the server cannot close the session;
// ours fails the provider (diagnostic, session.failed, the turn failed with the run's terminal)
// and stays, in upstream's words.
const toolchain = serverToolchainForFile();
/** The validated question set with its first question's `textValidation` replaced. */
const validated = (textValidation: Record<string, unknown>) => ({
  ...VALIDATED_QUESTION,
  questions: [{ ...VALIDATED_QUESTION.questions[0], textValidation }],
});

describe("what the OpenCode proxy sends that the runner cannot take", { timeout: 120_000 }, () => {
  it.each([
    [
      "a runtime request with a field beyond the driver's",
      [askStep(opencodeRequest({ actions: ["accept"] }))],
      "OpenCode runtime request contains an unknown field",
    ],
    [
      "a question whose pattern does not compile",
      [
        askStep(
          opencodeRequest({
            input: {
              ...VALIDATED_QUESTION,
              questions: [{ ...VALIDATED_QUESTION.questions[0], textValidation: { pattern: "(" } }],
            },
          }),
        ),
      ],
      "OpenCode question pattern cannot compile",
    ],
    [
      "a question whose bounds are inverted",
      [askStep(opencodeRequest({ input: validated({ inputType: "number", minimum: 5, maximum: 3 }) }))],
      "OpenCode question constraints are inverted",
    ],
    [
      "a question whose textValidation the question-set schema refuses",
      [askStep(opencodeRequest({ input: validated({ inputType: "float" }) }))],
      "OpenCode runtime request input failed the Paperclip question-set schema",
    ],
    [
      "a result for another contract revision",
      [
        resultStep(
          runResult({
            completionClaim: {
              contractRevision: "rev-2",
              objectiveSatisfied: true,
              criteria: [{ criterionId: "criterion-1", status: "satisfied", evidenceRefs: [] }],
              remainingWork: [],
            },
          }),
        ),
      ],
      "OpenCode paperclip/runResult changed its completion contract revision",
    ],
    [
      "a result the schema refuses",
      [resultStep({ ...runResult(), summary: undefined })],
      "provider semantic result failed the Paperclip result schema",
    ],
    [
      "two different results in one turn",
      [resultStep(runResult()), resultStep(runResult({ summary: "other" }))],
      "OpenCode emitted conflicting paperclip/runResult notifications for one turn",
    ],
  ])("%s: upstream's runner exits 1, ours fails the session", async (_name, script, reason) => {
    const profile = launchProfile(FAKE_OPENCODE_PROXY);
    const steps = (work: string, tail: readonly Step[]): Step[] => [
      ...command("run.prepare", "prepare", opencodePrepare(work, profile)),
      ...command("session.open", "open", { reuse: "same_session" }),
      scriptedTurn("turn", script),
      ...tail,
    ];
    const upstream = await withWork((work) =>
      driveOpencode(toolchain(), work, profile, steps(work, [{ op: "exit" }]), upstreamRunner()),
    );
    expect(upstream.exits).toEqual([{ phase: "final", code: 1, signal: null }]);
    expect(upstream.diagnostic).toContain(reason);
    expect(eventTypes(upstream.committed)).not.toContain("turn.started");
    const ours = await withWork((work) =>
      driveOpencode(
        toolchain(),
        work,
        profile,
        steps(work, [{ op: "event", type: "run.terminal" }, ...closeSteps]),
      ),
    );
    expectSessionFailedOnProtocol(ours, reason);
    expect(firstEvent(ours, "turn.failed").payload).toMatchObject({ code: "provider_protocol_violation" });
  });
});
