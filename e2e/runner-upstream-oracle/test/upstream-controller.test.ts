import { execFile } from "node:child_process";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { serverToolchain, tempDirForFile } from "@paperclipai/test-support";
import { beforeAll, describe, expect, it } from "vitest";
import { copyUpstreamModules, upstreamRunnerVendor, writeNodeLauncher } from "./vendor-copy.js";

const RUNNER_BIN = fileURLToPath(
  new URL("../../../packages/paperclip-runner/bin/paperclip-runnerd.js", import.meta.url),
);
const FAKE_HARNESS = fileURLToPath(
  new URL("../../../packages/paperclip-runner/dist/fake-harness.js", import.meta.url),
);
const SCRIPTS = fileURLToPath(new URL("../fixtures/local-runner-scripts", import.meta.url));
const DRIVER = fileURLToPath(new URL("./drive-scenario.mjs", import.meta.url));

interface PrpEvent {
  readonly eventType: string;
  readonly sourceSeq: number;
  readonly payload: Record<string, unknown>;
  readonly itemId?: string;
}

interface Trace {
  readonly events: PrpEvent[];
  readonly commandReceipts: { commandId: string; status: string; detail: string }[];
  readonly harnessProcessExit: { exitCode: number | null; success: boolean } | null;
  readonly runnerProcessExit: { code: number | null };
}

type Outcome =
  | {
      readonly ok: true;
      readonly trace: Trace;
      readonly fixtureValid: boolean;
      readonly fixtureError: string | null;
    }
  | { readonly ok: false; readonly error: string };

const workDir = tempDirForFile("runner-oracle-");
let controllerModule: string;
let node: string;

beforeAll(() => {
  const toolchain = serverToolchain("the upstream oracle tests");
  node = toolchain.node24;
  const nodeModules = join(toolchain.serverDir, "node_modules");
  const vendor = upstreamRunnerVendor(nodeModules);
  // Upstream's controller resolves everything from `<its file>/../..`: the copy's `vendor/` directory.
  const root = join(workDir, "vendor");
  copyUpstreamModules(vendor, "mock-core/local-runner.js", join(root, "paperclip-runner"), nodeModules);
  writeNodeLauncher(join(root, "runner/target/debug/paperclip-runnerd"), process.execPath, RUNNER_BIN);
  // Our runner runs its built-in scripted harness; the controller only checks that this path exists.
  writeNodeLauncher(join(root, "runner/target/debug/fake-harness"), process.execPath, FAKE_HARNESS);
  cpSync(SCRIPTS, join(root, "protocol/fixtures/local-runner/scripts"), { recursive: true });
  controllerModule = join(root, "paperclip-runner/mock-core/local-runner.js");
});

async function drive(scenario: string, duplicate = false): Promise<Trace> {
  const { stdout } = await promisify(execFile)(
    node,
    [DRIVER, controllerModule, scenario, duplicate ? "duplicate" : ""],
    {
      timeout: 60_000,
    },
  );
  const outcome = JSON.parse(stdout) as Outcome;
  if (!outcome.ok) throw new Error(`upstream's controller failed ${scenario}: ${outcome.error}`);
  // localRunnerTraceAsFixture validated the whole trace as a replay fixture (every event, the result, the bindings).
  expect(outcome.fixtureError).toBeNull();
  expect(outcome.fixtureValid).toBe(true);
  const trace = outcome.trace;
  expect(trace.runnerProcessExit.code).toBe(0);
  expect(trace.events.map((event) => event.sourceSeq)).toEqual(trace.events.map((_, index) => index + 1));
  expect(trace.events.filter((event) => event.eventType === "run.terminal")).toHaveLength(1);
  expect(trace.events.at(-1)?.eventType).toBe("run.terminal");
  return trace;
}

function terminalOf(trace: Trace): Record<string, unknown> {
  return trace.events.at(-1)?.payload as Record<string, unknown>;
}

const types = (trace: Trace): string[] => trace.events.map((event) => event.eventType);

describe("upstream's local-mode controller drives paperclip-runnerd", () => {
  it("happy-path: a successful process with a result succeeds", async () => {
    const trace = await drive("happy-path");
    expect(types(trace).slice(0, 5)).toEqual([
      "runtime.phase.changed",
      "workspace.ready",
      "harness.starting",
      "harness.ready",
      "session.starting",
    ]);
    expect(types(trace).filter((type) => type === "run.result.proposed")).toHaveLength(1);
    expect(trace.commandReceipts.map((receipt) => receipt.status)).toEqual([
      "accepted",
      "accepted",
      "accepted",
    ]);
    expect(trace.harnessProcessExit).toEqual({ exitCode: 0, success: true, signal: null });
    expect(terminalOf(trace)).toMatchObject({
      turnTerminalState: "completed",
      runTerminalState: "succeeded",
      reportedWorkDisposition: "done",
      reconciliation: {
        authority: "runner",
        reason: "successful_process_and_result",
        proposalContradicted: false,
      },
    });
    const exited = trace.events.find((event) => event.eventType === "harness.exited");
    // The controller asks for a 3-line, 256-byte tail.
    expect(exited?.payload.logs).toMatchObject({ droppedLines: 2 });
    expect((exited?.payload.logs as { lines?: string[] } | undefined)?.lines).toHaveLength(3);
  });

  it("happy-path with the turn command sent twice: the exact repeat is a duplicate", async () => {
    const trace = await drive("happy-path", true);
    expect(trace.commandReceipts.map((receipt) => [receipt.status, receipt.detail])).toContainEqual([
      "duplicate",
      "equivalent command already applied",
    ]);
    expect(types(trace).filter((type) => type === "turn.submitted")).toHaveLength(1);
  });

  it("permission-input: both runtime requests are raised, resolved and the run succeeds", async () => {
    const trace = await drive("permission-input");
    const created = trace.events.filter((event) => event.eventType === "runtime_request.created");
    expect(created.map((event) => (event.payload.request as { requestId: string }).requestId)).toEqual([
      "request_local_runner_permission",
      "request_local_runner_input",
    ]);
    expect(types(trace).filter((type) => type === "runtime_request.resolved")).toHaveLength(2);
    expect(trace.commandReceipts.map((receipt) => receipt.status)).toEqual(Array(5).fill("accepted"));
    expect(terminalOf(trace)).toMatchObject({ runTerminalState: "succeeded" });
  });

  it("interrupted: the interrupt is answered when forwarded and the run ends interrupted", async () => {
    const trace = await drive("interrupted");
    expect(trace.commandReceipts.at(-1)).toMatchObject({ status: "accepted", detail: "command applied" });
    expect(types(trace)).toContain("turn.interrupted");
    expect(trace.harnessProcessExit).toMatchObject({ exitCode: 130, success: false });
    expect(terminalOf(trace)).toMatchObject({
      turnTerminalState: "interrupted",
      runTerminalState: "cancelled",
      reportedWorkDisposition: "yielded",
      reconciliation: { reason: "turn_interrupted", proposalContradicted: false },
    });
  });

  it("error: a failed process fails the run, whatever it proposed", async () => {
    const trace = await drive("error");
    expect(trace.harnessProcessExit).toMatchObject({ exitCode: 7, success: false });
    expect(terminalOf(trace)).toMatchObject({
      turnTerminalState: "failed",
      runTerminalState: "failed",
      reportedWorkDisposition: "yielded",
      reconciliation: { reason: "harness_process_failed", proposalValid: true },
    });
    const exited = trace.events.find((event) => event.eventType === "harness.exited");
    expect(JSON.stringify(exited?.payload.logs)).toContain("stderr: scripted harness failure");
  });

  it("duplicate-terminal: the first proposal stays, the second becomes a diagnostic", async () => {
    const trace = await drive("duplicate-terminal");
    const diagnostics = trace.events.filter((event) => event.eventType === "harness.diagnostic");
    expect(diagnostics.map((event) => event.payload.code)).toEqual(["duplicate_terminal_ignored"]);
    expect(terminalOf(trace)).toMatchObject({
      runTerminalState: "succeeded",
      harnessTerminalProposal: { runTerminalState: "succeeded" },
    });
  });
});
