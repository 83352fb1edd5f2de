import { describe, expect, it } from "vitest";
import { closeSteps, codexPrepare, commandOf, serverToolchainForFile } from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers, failed, slug } from "./helpers/command-differential.js";
import { prepareWith } from "./helpers/invalid-codex-prepares.js";
import { bothRunners } from "./helpers/startup-release-differential.js";

// Differential: upstream's Rust runner and ours on the same commands through the server's control
// plane and the fake app-server (`helpers/startup-release-differential.ts`): a `run.prepare` again
// (on a prepared run, an open session, or after a turn began before `session.open`) and the
// descriptor fields upstream's binary never reads. Each case compares the command's answer (status,
// and the result: `code` and `message` when it failed) and the committed event types; thread ids,
// pids and the work directory are normalised, nothing else.
const toolchain = serverToolchainForFile();

describe("run.prepare again against upstream's runner", { timeout: 120_000 }, () => {
  it("differs on purpose on a run.prepare after a turn.start before session.open: ours refuses to re-bind", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("turn.start", "turn", { text: "hi" }),
      { op: "event", type: "run.terminal" },
      ...command("run.prepare", "prepare again", codexPrepare(work)),
      ...command("session.snapshot", "snapshot"),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...closeSteps,
    ]);
    // The turn started Codex on a thread: both report the session open. Upstream's re-binds it
    // (as while open after session.open); ours keeps the session as the turn opened it.
    expect(answer(upstream, "prepare again")).toEqual({
      status: "completed",
      result: { status: "prepared", provider: "codex", driver: "codex_app_server" },
    });
    expect(commandOf(ours, slug("prepare again"))?.result).toMatchObject({
      status: "rejected",
      message: "the provider session is already open",
    });
    expect(answer(ours, "snapshot")).toMatchObject({ result: { status: "session_open" } });
    expectSameAnswers(ours, upstream, [slug("prepare again")]);
  });

  it("differs on purpose on a run.prepare while the session is open: ours refuses to re-bind it", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...command("run.prepare", "prepare while open", codexPrepare(work)),
      ...command("turn.start", "turn", { text: "first" }),
      { op: "event", type: "run.terminal" },
      ...closeSteps,
    ]);
    // Upstream's re-binds the open session (its tools and contract could change under a running
    // provider); ours keeps the session as it was opened.
    const prepared = {
      status: "completed",
      result: { status: "prepared", provider: "codex", driver: "codex_app_server" },
    };
    expect(answer(upstream, "prepare while open")).toEqual(prepared);
    expect(
      ours.commands.find((record) => record.commandId === slug("prepare while open"))?.result,
    ).toMatchObject({
      status: "rejected",
      message: "the provider session is already open",
    });
    expect(answer(ours, "turn")).toEqual(answer(upstream, "turn"));
  });

  it("prepares a prepared run again only with the same provider, tools and contract, as upstream's", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("run.prepare", "same again", codexPrepare(work)),
      ...command(
        "run.prepare",
        "another model",
        prepareWith(work, (p) => Object.assign(p, { model: "other" })),
      ),
      ...command("run.prepare", "no tools", codexPrepare(work, { tools: false })),
      ...command("run.prepare", "no contract", codexPrepare(work, { contract: false })),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...closeSteps,
    ]);
    const changed = failed("Codex provider or completion contract changed across the durable run");
    expect(answer(ours, "another model")).toEqual(changed);
    expect(answer(ours, "no contract")).toEqual(changed);
    expect(answer(ours, "no tools")).toEqual(
      failed("run.prepare tool contract changed: authorized tool set changed across a durable session"),
    );
    expectSameAnswers(ours, upstream);
  });

  it("prepares includeSkillInstructions and conversationMode of any JSON type, as upstream's", async () => {
    const wrong: readonly unknown[] = ["yes", 1, { a: 1 }, null, [], true, false];
    const modes: readonly unknown[] = ["yes", "", 1, { a: 1 }, null, [], "plan", "Default"];
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...wrong.flatMap((value, index) =>
        command(
          "run.prepare",
          `skills ${index}`,
          prepareWith(work, (p) => {
            p.includeSkillInstructions = value;
          }),
        ),
      ),
      ...modes.flatMap((value, index) =>
        command(
          "run.prepare",
          `mode ${index}`,
          prepareWith(work, (p) => {
            p.conversationMode = value;
          }),
        ),
      ),
      // Neither is read before the fields upstream's runner types: the model's type is refused.
      ...command(
        "run.prepare",
        "both wrong and a number as model",
        prepareWith(work, (p) =>
          Object.assign(p, { includeSkillInstructions: "x", conversationMode: 3, model: 4 }),
        ),
      ),
      ...command("session.open", "open", { reuse: "same_session" }),
      ...closeSteps,
    ]);
    const prepared = {
      status: "completed",
      result: { status: "prepared", provider: "codex", driver: "codex_app_server" },
    };
    // Ours failed the second one whose boolean changed ("Codex provider or completion contract changed…").
    for (const index of wrong.keys()) expect(answer(ours, `skills ${index}`)).toEqual(prepared);
    for (const index of modes.keys()) expect(answer(ours, `mode ${index}`)).toEqual(prepared);
    expect(answer(ours, "both wrong and a number as model")).toEqual(
      failed("run.prepare provider is invalid: invalid type: integer `4`, expected a string"),
    );
    expectSameAnswers(ours, upstream);
  });
});
