import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  type DriverResult,
  eventTypes,
  type Step,
  serverToolchainForFile,
} from "./helpers/codex-durable.js";
import { answer, command, failed, slug, toolResult } from "./helpers/command-differential.js";
import { bothRunners } from "./helpers/startup-release-differential.js";

// Generated differential: short sequences of lifecycle commands, in random orders and with valid
// and invalid payloads, run by upstream's Rust runner and ours through the server's control plane
// and the fake app-server; every answer (status, code, message, result) and the committed event
// types must be the same. A fixed seed and a few runs keep it deterministic and short in CI;
// `SWEEP_SEED` and `SWEEP_RUNS` explore more (every difference found so far is fixed in ours and
// pinned in `codex-command-edges-upstream.test.ts`, or listed below and in docs/compatibility.md).
//
// The sequences never depend on timing: a model of the session (prepared, opened, a turn active,
// closed) says when a turn starts or ends, and the scenario waits for that turn's `turn.started`
// or `run.terminal` before the next command, so both runners see Codex's notifications at the
// same points. Left out on purpose (deliberate differences, docs/compatibility.md section (c)):
// a `run.prepare` once Codex runs for the session (ours refuses to re-bind an open session,
// upstream's re-binds it: after a `session.open`, or a `turn.start` or a `turn.steer` with a text
// before it, which start Codex on a new thread in both; a snapshot before it starts nothing in
// either, so a run.prepare behind one is compared), a `turn.start` after only refused `run.prepare`s (upstream's runner never answers it), a
// refused provider kind (ours binds no executor), a provider command that does not exist
// (upstream's runner is poisoned), warm attachment fields (normalised by `answer`). Not deliberate,
// but upstream's own timing: the drain answers marked `racy` below. A `runner.suspend` ends a
// sequence (neither runner answers a command behind it); an unknown command type never reaches a
// runner (the server's control plane refuses to queue it), so none is generated.
const toolchain = serverToolchainForFile();

const SEED = Number(process.env.SWEEP_SEED ?? 20261203);
const RUNS = Number(process.env.SWEEP_RUNS ?? 8);

/**
 * Right behind a goal change upstream's drain answers as Codex's notification of the change
 * arrives (seen both ways): not compared.
 */
const drainRacesGoalNotification = (previous: string | null): boolean =>
  previous === "session.goal.set" || previous === "session.goal.clear";

/**
 * Right behind a `session.close` or `session.destroy` upstream's drain answers false, as ours, unless
 * the server's acknowledgement of the committed `session.closed` beat the drain (true once in CI on
 * a loaded machine): compared, but that one way of differing is let through.
 */
const drainRacesCloseAcknowledgement = (previous: string | null): boolean =>
  previous === "session.close" || previous === "session.destroy";

/**
 * The third drain in a row (snapshots between them or not) behind a `session.close` or `session.destroy` that kept a
 * session.open's startup facts held: upstream's answer races its release of them (seen both ways
 * behind a fresh open's close; ours answers false): not compared.
 */
const THIRD_DRAIN_BEHIND_CLOSE = 3;

/** Drains with nothing between them at the end of each sequence: one of them must answer drained. */
export const LIVENESS_DRAINS = 5;

/** One generated command: its type and payload, and how it changes the model when it succeeds. */
interface Move {
  readonly type: string;
  readonly payload?: Record<string, unknown>;
  /** The payload is one the runners accept (a text for a turn, a valid provider descriptor). */
  readonly valid: boolean;
}

/** The commands that end an active turn (left out while it waits for its runtime request's answer). */
const ENDS_A_TURN: ReadonlySet<string> = new Set([
  "turn.interrupt",
  "run.cancel",
  "turn.stop",
  "turn.steer",
  "session.close",
  "session.destroy",
]);

/** An answer the fake app-server's question set takes. */
const ANSWERS = {
  schema: "paperclip.question_response.v1",
  answers: { color: { selectedOptionIds: ["option-2"] }, why: { text: "it is calm" } },
};

/** The payloads each command is generated with (`null` for a command that takes none). */
const PAYLOADS: Readonly<Record<string, readonly (Record<string, unknown> | null)[]>> = {
  "run.prepare": [{ valid: true }, { invalid: "model" }, { invalid: "approval" }, { skills: "yes" }],
  "session.open": [{ reuse: "same_session" }, { reuse: 5 }, {}],
  "turn.start": [
    { text: "hang" },
    // The fake app-server asks the user (a runtime request) and waits for its answer.
    { text: "ask" },
    { text: "" },
    {},
    { text: 5 },
    { text: null },
    { text: ["hang"] },
    // Extra fields and an `input` array are not read: the text is the turn's.
    { text: "hang", input: [{ type: "text", text: "other" }], extra: 1 },
    { input: [{ type: "text", text: "hang" }] },
  ],
  "turn.interrupt": [{}, { reason: "user" }, { reason: 5 }],
  "run.cancel": [{ reason: "user" }, { reason: null }],
  "turn.steer": [{ text: "x" }, {}, { text: 3 }, { text: null }, { text: [] }, { text: "x", input: [1] }],
  "turn.stop": [{}],
  "session.snapshot": [null],
  "session.close": [null],
  "session.destroy": [null],
  "runner.drain": [null],
  // Ends the sequence (`sweepSteps`): neither runner answers a command behind it.
  "runner.suspend": [null],
  "request.resolve": [
    // The live turn's last request (`$lastRuntimeRequest`, the driver's), answered. An answer the
    // question set does not take is left out: upstream's checks and words differ from ours (open,
    // docs/compatibility.md, "`request.resolve` with an answer the question set does not take").
    { requestId: "$lastRuntimeRequest", turnId: "t", response: ANSWERS },
    { requestId: "nope", turnId: "t", response: {} },
    {},
    { requestId: 5, turnId: "t", response: {} },
    { requestId: null, turnId: null, response: null },
  ],
  "semantic_tool.result": [
    toolResult("nope"),
    { callId: "nope", result: {} },
    { ...toolResult("nope"), isError: "yes" },
    { ...toolResult("nope"), callId: ["nope"] },
    { callId: "nope", operationId: "report_progress" },
  ],
  "session.goal.get": [null],
  "session.goal.set": [
    { objective: "ship it" },
    {},
    { objective: 5 },
    { objective: "  " },
    { status: "bogus" },
    { objective: "ship it", tokenBudget: 0 },
  ],
  "session.goal.clear": [null],
};

const move: fc.Arbitrary<Move> = fc.constantFrom(...Object.keys(PAYLOADS)).chain((type) =>
  fc.constantFrom(...(PAYLOADS[type] as (Record<string, unknown> | null)[])).map((payload) => ({
    type,
    ...(payload === null ? {} : { payload }),
    valid:
      payload === null ||
      (type === "run.prepare" ? payload.invalid === undefined : typeof payload.text === "string"),
  })),
);

/** A `run.prepare` payload of the generated kind. */
function preparePayload(work: string, payload: Record<string, unknown>): Record<string, unknown> {
  const prepare = codexPrepare(work);
  const provider = { ...(prepare.provider as Record<string, unknown>) };
  if (payload.invalid === "model") provider.model = 5;
  if (payload.invalid === "approval") provider.approvalPolicy = "on-request";
  // Upstream's shipped runner does not read it: any JSON type prepares.
  if (payload.skills !== undefined) provider.includeSkillInstructions = payload.skills;
  return { ...prepare, provider };
}

/**
 * The scenario of a generated sequence: each command, then a wait for the turn event the model
 * expects it to cause, so nothing is compared that depends on when Codex's notifications arrive.
 */
export function sweepSteps(
  work: string,
  moves: readonly Move[],
): { steps: Step[]; unselected: string[]; racy: string[]; behindClose: string[]; liveness: string[] } {
  // `selected`: a run.prepare came (of kind codex, it selects upstream's executor, valid or not).
  // `asking`: the active turn waits for the answer to its runtime request.
  const model = {
    selected: false,
    prepared: false,
    opened: false,
    turnActive: false,
    closed: false,
    asking: false,
  };
  let asked = 0;
  const unselected: string[] = [];
  // Drains whose upstream answer is timing (`drainRacesGoalNotification`, `…CloseAcknowledgement`).
  const racy: string[] = [];
  const behindClose: string[] = [];
  let previous: string | null = null;
  let started = 0;
  let terminals = 0;
  const steps: Step[] = [];
  const endTurn = () => {
    model.turnActive = false;
    model.asking = false;
    terminals += 1;
    steps.push({ op: "event", type: "run.terminal", count: terminals });
  };
  // The drains in a row right behind a close or destroy (null once another command came).
  let drainsBehindClose: number | null = null;
  const drainBehindClose = (type: string, id: string) => {
    if (type === "session.close" || type === "session.destroy") drainsBehindClose = 0;
    // A snapshot keeps the facts held as the close left them (seen racing behind one too).
    else if (type === "session.snapshot") return;
    else if (type !== "runner.drain" || drainsBehindClose === null) drainsBehindClose = null;
    else if (++drainsBehindClose === THIRD_DRAIN_BEHIND_CLOSE) racy.push(id);
  };
  // A runner.suspend ends the sequence: the runner answers it and then nothing more (both runners).
  const suspendAt = moves.findIndex((candidate) => candidate.type === "runner.suspend");
  const played = suspendAt === -1 ? moves : moves.slice(0, suspendAt);
  played.forEach(({ type, payload, valid }, index) => {
    // Deliberate difference: ours does not re-bind a session once Codex runs for it, a turn
    // command's before session.open included (`model.opened`; left out, see above).
    if (type === "run.prepare" && model.opened && !model.closed) return;
    // Deliberate difference: upstream's runner never answers a turn.start when its only run.prepare
    // was refused (the executor selected, nothing bound); ours fails it (pinned in the edges test).
    if (type === "turn.start" && model.selected && !model.prepared) return;
    // Left out (open, docs/compatibility.md): what ends a turn waiting for its runtime request's
    // answer; upstream's runner and ours were seen to commit other events (sweep seed 8080, path 43).
    if (model.asking && ENDS_A_TURN.has(type)) return;
    const body = type === "run.prepare" ? preparePayload(work, payload ?? {}) : payload;
    steps.push(...command(type, `c${index} ${type}`, body));
    if (type === "runner.drain" && !model.selected) unselected.push(slug(`c${index} ${type}`));
    if (type === "runner.drain" && drainRacesGoalNotification(previous)) racy.push(slug(`c${index} ${type}`));
    if (type === "runner.drain" && drainRacesCloseAcknowledgement(previous))
      behindClose.push(slug(`c${index} ${type}`));
    previous = type;
    drainBehindClose(type, slug(`c${index} ${type}`));
    const live = model.prepared && !model.closed;
    switch (type) {
      case "run.prepare":
        model.selected = true;
        if (valid && !model.closed) model.prepared = true;
        return;
      case "session.open":
        if (live) model.opened = true;
        return;
      case "turn.start":
        // Any text starts Codex (an empty one is then refused); only a non-empty one starts a turn.
        if (live && valid) model.opened = true;
        if (live && valid && payload?.text !== "" && !model.turnActive) {
          model.turnActive = true;
          started += 1;
          steps.push({ op: "event", type: "turn.started", count: started });
          if (payload?.text === "ask") {
            model.asking = true;
            asked += 1;
            steps.push({ op: "event", type: "runtime_request.created", count: asked });
          }
        }
        return;
      case "turn.interrupt":
      case "run.cancel":
        if (live && model.turnActive) endTurn();
        return;
      case "turn.steer":
        // A text starts Codex before session.open (the steer refused: no turn).
        if (live && valid) model.opened = true;
        // The fake app-server answers a steer, then completes the turn.
        if (live && model.turnActive && valid) endTurn();
        return;
      case "turn.stop":
        // Codex is stopped: the turn is retired without a turn event.
        if (live) model.turnActive = false;
        if (live) model.asking = false;
        return;
      case "request.resolve":
        // The answer the question set takes reaches Codex, which completes the turn.
        if (live && model.asking && payload?.response === ANSWERS) endTurn();
        return;
      case "session.close":
      case "session.destroy":
        if (!live) return;
        if (model.turnActive) endTurn();
        model.closed = true;
        return;
    }
  });
  // A turn waiting for its runtime request's answer is answered (its end by an interrupt is left out).
  if (model.asking) {
    steps.push(
      ...command("request.resolve", "end answer", {
        requestId: "$lastRuntimeRequest",
        turnId: "t",
        response: ANSWERS,
      }),
    );
    drainBehindClose("request.resolve", "end-answer");
    endTurn();
  }
  if (suspendAt !== -1) {
    const id = slug(`c${suspendAt} runner.suspend`);
    steps.push(...command("runner.suspend", `c${suspendAt} runner.suspend`), { op: "exit" });
    if (!model.selected) unselected.push(id);
    return { steps, unselected, racy, behindClose, liveness: [] };
  }
  // The server stops a turn before it closes the session; here it is interrupted first.
  if (model.turnActive) {
    steps.push(...command("turn.interrupt", "end interrupt", {}));
    drainBehindClose("turn.interrupt", "end-interrupt");
    endTurn();
  }
  // Liveness: the server's close repeats drains until one answers retainedEventsDrained:true, so
  // repeated drains with nothing between them must get there (their answers compared as the rest).
  const liveness: string[] = [];
  for (let n = 1; n <= LIVENESS_DRAINS; n++) {
    const id = slug(`liveness drain ${n}`);
    steps.push(...command("runner.drain", id));
    if (!model.selected) unselected.push(id);
    if (n === 1 && drainRacesGoalNotification(previous)) racy.push(id);
    if (n === 1 && drainRacesCloseAcknowledgement(previous)) behindClose.push(id);
    drainBehindClose("runner.drain", id);
    liveness.push(id);
  }
  steps.push(...closeSteps);
  if (!model.selected) unselected.push("drain", "suspend");
  return { steps, unselected, racy, behindClose, liveness };
}

/**
 * What is compared of one runner's run: each command's normalised answer, the committed event
 * types. Differs on purpose (docs/compatibility.md, provider kinds): before any run.prepare
 * selected a provider, upstream's runner fails a drain and a suspend, ours completes them so the
 * server's close can prove suspension; both are asserted on their own (`unselected`), the rest compared.
 */
function observed(
  result: DriverResult,
  { unselected, masked }: { readonly unselected: readonly string[]; readonly masked: readonly string[] },
): { answers: unknown[]; events: string[] } {
  return {
    answers: result.commands
      .filter((record) => !unselected.includes(record.commandId))
      .map((record) => {
        const normalised = answer(result, record.commandId) as { result?: Record<string, unknown> };
        if (masked.includes(record.commandId) && normalised.result?.retainedEventsDrained !== undefined)
          normalised.result = { ...normalised.result, retainedEventsDrained: "<in flight>" };
        return { id: record.commandId, ...normalised };
      }),
    events: eventTypes(result.committed),
  };
}

/** A drain's `retainedEventsDrained`. */
const retained = (result: DriverResult, id: string): unknown =>
  (answer(result, id) as { result?: { retainedEventsDrained?: unknown } }).result?.retainedEventsDrained;

const NOTHING_SELECTED = failed("run.prepare must select a provider before provider commands execute");

describe("generated command sequences against upstream's runner", { timeout: 600_000 }, () => {
  it("answers every generated sequence as upstream's, with the same event types", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 3, maxLength: 8 }), async (moves) => {
        const plan = sweepSteps("", moves);
        const { unselected } = plan;
        const [ours, upstream] = await bothRunners(toolchain(), (work) => sweepSteps(work, moves).steps);
        const lostRace = plan.behindClose.filter(
          (id) => retained(upstream, id) === true && retained(ours, id) === false,
        );
        const compared = { unselected, masked: [...plan.racy, ...lostRace] };
        expect({ moves, ...observed(ours, compared) }).toEqual({
          moves,
          ...observed(upstream, compared),
        });
        // Ours converges as upstream's: a repeated drain answers drained within a few answers.
        if (plan.liveness.length > 0 && !unselected.includes(plan.liveness[0] as string))
          expect(plan.liveness.map((id) => retained(ours, id))).toContain(true);
        for (const id of unselected) {
          expect({ id, ...(answer(upstream, id) as object) }).toEqual({ id, ...NOTHING_SELECTED });
          expect(answer(ours, id)).toMatchObject({ status: "completed", result: { status: "completed" } });
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
