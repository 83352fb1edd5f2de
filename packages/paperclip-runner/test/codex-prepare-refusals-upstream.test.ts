import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  driveCodexRunner,
  eventTypes,
  type Step,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { answer, command, expectSameAnswers, failed, toolResult } from "./helpers/command-differential.js";
import { INVALID_PREPARES, prepareWith } from "./helpers/invalid-codex-prepares.js";
import { bothRunners } from "./helpers/startup-release-differential.js";

// Differential: upstream's Rust runner and ours on the same commands through the server's control
// plane and the fake app-server (`helpers/startup-release-differential.ts`): refused `run.prepare`
// payloads and kinds, a refused tool set, and the commands behind a refused first `run.prepare`.
// Each case compares the command's answer (status, and the result: `code` and `message` when it
// failed) and the committed event types; thread ids, pids and the work directory are normalised,
// nothing else.
const toolchain = serverToolchainForFile();

describe("run.prepare refusals against upstream's runner", { timeout: 120_000 }, () => {
  it("fails each invalid run.prepare with upstream's result, then prepares one with unknown keys", async () => {
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...INVALID_PREPARES.flatMap(({ name, change }) =>
        command(
          "run.prepare",
          name,
          prepareWith(work, (p) => change(p, work)),
        ),
      ),
      ...command("run.prepare", "no provider object", { ...codexPrepare(work), provider: undefined }),
      // Once the Codex executor is selected, a later run.prepare's kind is not read.
      ...command(
        "run.prepare",
        "unknown keys and another kind",
        prepareWith(work, (p) => {
          Object.assign(p, { kind: "acpx", unknownKey: { nested: true }, another: 3 });
        }),
      ),
      ...command("run.prepare", "again", codexPrepare(work)),
      ...closeSteps,
    ]);
    for (const { name, message } of INVALID_PREPARES) {
      expect({ name, ...(answer(ours, name) as object) }).toEqual({ name, ...failed(message) });
    }
    expect(answer(ours, "no provider object")).toEqual(failed("run.prepare requires provider"));
    expect(answer(ours, "unknown keys and another kind")).toEqual({
      status: "completed",
      result: { status: "prepared", provider: "codex", driver: "codex_app_server" },
    });
    expectSameAnswers(ours, upstream);
    expect(eventTypes(ours.committed)).toEqual([]);
    expect(ours.providerLog).toEqual([]);
  });

  const FRESH_KINDS: readonly {
    readonly name: string;
    readonly change: (provider: Record<string, unknown>) => void;
    readonly message: string;
    /** Whether upstream's runner selected an executor (its own for the kind), so it completes the suspend. */
    readonly selects: boolean;
  }[] = [
    {
      name: "no kind",
      change: (p) => {
        delete p.kind;
      },
      message: "run.prepare requires a supported provider kind before runner execution",
      selects: false,
    },
    {
      name: "a number as kind",
      change: (p) => {
        p.kind = 3;
      },
      message: "run.prepare requires a supported provider kind before runner execution",
      selects: false,
    },
    {
      name: "an unknown kind",
      change: (p) => {
        Object.assign(p, { kind: "cursor", provider: "cursor" });
      },
      message: "provider kind cursor is not executable through the local runnerd boundary",
      selects: false,
    },
    {
      name: "acpx",
      change: (p) => {
        Object.assign(p, { kind: "acpx", provider: "acpx", driver: "acpx_runtime" });
      },
      message:
        "run.prepare ACPX provider is invalid: unknown field `approvalPolicy`, expected one of `kind`, `provider`, `driver`, `providerVersion`, `agent`, `model`, `acpxVersion`, `agentServerPackage`, `agentServerVersion`, `agentRuntimePackage`, `agentRuntimeVersion`, `commandDigest`, `sidecarCommand`, `sidecarArgs`, `runtimeDirectory`, `normalizedSessionId`, `runId`, `cwd`, `instructions`, `permissionMode`, `permissionModePinned`, `runtimeContext`",
      selects: true,
    },
    {
      name: "claude_managed",
      change: (p) => {
        Object.assign(p, {
          kind: "claude_managed",
          provider: "claude_managed",
          driver: "claude_managed_agents_api",
        });
      },
      message:
        "Claude Managed provider descriptor is invalid: unknown field `approvalPolicy`, expected one of `model`, `profileId`, `anthropicAgentId`, `agentVersion`, `environmentId`, `betaVersion`, `maxSessionListCostUsd`, `instructions`, `runtimeContext`",
      selects: true,
    },
    {
      name: "aws_agentcore",
      change: (p) => {
        Object.assign(p, {
          kind: "aws_agentcore",
          provider: "aws_agentcore",
          driver: "aws_agentcore_harness_api",
        });
      },
      message:
        "AWS AgentCore provider descriptor is invalid: unknown field `approvalPolicy`, expected one of `model`, `profileId`, `region`, `accountId`, `harnessArn`, `harnessVersion`, `endpointArn`, `endpointQualifier`, `agentRuntimeArn`, `memoryArn`, `memoryId`, `invocationRoleArn`, `contextBucket`, `contextPrefix`, `contextKmsKeyArn`, `qualificationRevision`, `eventExpiryDays`, `maxEstimatedSessionCostUsd`, `maxIterations`, `maxOutputTokens`, `timeoutSeconds`, `instructions`, `runtimeContext`",
      selects: true,
    },
  ];

  it("fails a fresh runner's run.prepare of a kind it does not execute as upstream's does", async () => {
    for (const { name, change, message, selects } of FRESH_KINDS) {
      const [ours, upstream] = await bothRunners(toolchain(), (work) => [
        ...command("run.prepare", "prepare", prepareWith(work, change)),
        ...command("session.snapshot", "snapshot"),
        { op: "queue", type: "runner.suspend", id: "suspend" },
        { op: "exit" },
      ]);
      expect({ name, ...(answer(ours, "prepare") as object) }).toEqual({ name, ...failed(message) });
      expect({ name, ...(answer(ours, "prepare") as object) }).toEqual({
        name,
        ...(answer(upstream, "prepare") as object),
      });
      expect(answer(ours, "snapshot")).toEqual(
        failed("run.prepare must select a provider before provider commands execute"),
      );
      // Differs on purpose: ours binds no executor for a kind it refuses; its suspend completes, so
      // the server's close can prove suspension. Upstream's fails it when the kind selected nothing,
      // and for acpx and the managed kinds answers from the executor the refused payload selected.
      expect(answer(ours, "suspend")).toEqual({ status: "completed", result: { status: "completed" } });
      if (selects) {
        expect(answer(upstream, "suspend")).toEqual({ status: "completed", result: { status: "completed" } });
      } else {
        expect(answer(upstream, "snapshot")).toEqual(answer(ours, "snapshot"));
        expect(answer(upstream, "suspend")).toEqual(
          failed("run.prepare must select a provider before provider commands execute"),
        );
      }
      expect(eventTypes(ours.committed)).toEqual([]);
      expect(eventTypes(upstream.committed)).toEqual([]);
    }
  });

  it("fails a run.prepare whose tool set upstream's runner refuses, with its words", async () => {
    const withTools = (work: string, change: (tools: Record<string, unknown>) => void) => {
      const prepare = codexPrepare(work);
      const tools = { ...(prepare.authorizedTools as Record<string, unknown>) };
      change(tools);
      return { ...prepare, authorizedTools: tools };
    };
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command(
        "run.prepare",
        "digest not canonical",
        withTools(work, (t) => Object.assign(t, { catalogDigest: "sha256:00" })),
      ),
      ...command(
        "run.prepare",
        "digest of other operations",
        withTools(work, (t) => Object.assign(t, { catalogDigest: `sha256:${"0".repeat(64)}` })),
      ),
      ...command(
        "run.prepare",
        "another schema",
        withTools(work, (t) => Object.assign(t, { schema: "other" })),
      ),
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...closeSteps,
    ]);
    const rejected = (reason: string) => failed(`run.prepare tool contract rejected: ${reason}`);
    expect(answer(ours, "digest not canonical")).toEqual(
      rejected("authorized tool set requires a canonical sha256 catalog digest"),
    );
    expect(answer(ours, "digest of other operations")).toEqual(
      rejected("authorized tool catalog digest does not match its operations"),
    );
    expect(answer(ours, "another schema")).toEqual(rejected("unsupported authorized tool-set contract"));
    expectSameAnswers(ours, upstream);
  });

  it("answers commands after a refused first run.prepare as upstream's (nothing bound)", async () => {
    const commands: readonly [string, string, Record<string, unknown> | undefined][] = [
      ["turn.steer", "steer", { text: "x" }],
      ["turn.steer", "steer without text", {}],
      ["turn.interrupt", "interrupt", {}],
      ["run.cancel", "cancel", {}],
      ["turn.stop", "stop", {}],
      ["request.resolve", "resolve", { requestId: "nope", turnId: "t", response: {} }],
      ["request.resolve", "resolve without requestId", {}],
      ["semantic_tool.result", "tool result", toolResult("nope")],
      ["semantic_tool.result", "tool result without operationId", { callId: "nope", result: {} }],
      ["session.goal.get", "goal get", undefined],
      ["session.goal.set", "goal set", { objective: "x" }],
      ["session.goal.clear", "goal clear", undefined],
      ["session.snapshot", "snapshot", undefined],
      ["session.open", "open", { reuse: "same_session" }],
      ["session.close", "close", undefined],
      ["session.destroy", "destroy", undefined],
      ["session.budget.increase", "budget", {}],
    ];
    const steps = (work: string): Step[] => [
      ...command(
        "run.prepare",
        "refused",
        prepareWith(work, (p) => {
          p.model = 5;
        }),
      ),
      ...commands.flatMap(([type, name, payload]) => command(type, name, payload)),
      ...command("run.prepare", "prepare", codexPrepare(work)),
      ...command("session.snapshot", "snapshot when prepared"),
      ...closeSteps,
    ];
    const [ours, upstream] = await bothRunners(toolchain(), steps);
    // Ours failed each with an uncoded "run.prepare has not bound a provider" (no result).
    expect(answer(ours, "steer")).toEqual(failed("Codex provider has not been prepared"));
    expect(answer(ours, "snapshot")).toEqual(failed("Codex provider is not prepared"));
    expect(answer(ours, "stop")).toEqual({
      status: "completed",
      result: { status: "already_settled", reason: "turn.stop" },
    });
    expectSameAnswers(ours, upstream);
    // Differs on purpose: upstream's runner never answers a turn.start here (the server's command
    // waits for good); ours fails it, its text checked first.
    // (observed: the driver times out waiting for its answer, so only ours is run here).
    const alone = await withWork((work) =>
      driveCodexRunner(toolchain(), work, [
        ...command(
          "run.prepare",
          "refused",
          prepareWith(work, (p) => Object.assign(p, { model: 5 })),
        ),
        ...command("turn.start", "turn", { text: "hi" }),
        ...command("turn.start", "turn without text", {}),
        ...closeSteps,
      ]),
    );
    expect(alone.failure).toBeNull();
    expect(answer(alone, "turn")).toEqual(failed("Codex provider has not been prepared"));
    expect(answer(alone, "turn without text")).toEqual(failed("turn.start payload.text is required"));
  });

  it("refuses a run.attach after a refused first run.prepare, where upstream's binds and opens", async () => {
    const refused = (work: string) =>
      prepareWith(work, (p) => {
        p.model = 5;
      });
    const [ours, upstream] = await bothRunners(toolchain(), (work) => [
      ...command("run.prepare", "refused", refused(work)),
      ...command("run.attach", "attach", codexPrepare(work)),
      ...closeSteps,
    ]);
    // Deliberate difference (docs/compatibility.md, warm run.attach): upstream's runner binds a
    // provider from the payload and starts a session; ours implements no warm attach and refuses
    // it as when bound (it used to fail "Codex provider has not been prepared").
    expect(answer(upstream, "attach")).toMatchObject({ status: "completed", result: { status: "started" } });
    expect(answer(ours, "attach")).toMatchObject({
      status: "rejected",
      result: { status: "rejected", code: "provider_command_unavailable" },
    });
    for (const result of [ours, upstream])
      expect(answer(result, "refused")).toEqual(answer(upstream, "refused"));
  });
});
