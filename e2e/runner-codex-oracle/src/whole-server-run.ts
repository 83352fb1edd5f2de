import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { HostApi } from "@paperclipai/paperclip-host-e2e/host-api";
import { type PaperclipServer, startPaperclipServer } from "@paperclipai/paperclip-host-e2e/paperclip-server";
import { waitFor } from "@paperclipai/paperclip-host-e2e/process-group";
import { expect } from "vitest";
import { killAll, processesUnder } from "./processes-under.js";
import { type CodexToolchain, OUR_RUNNER_BIN } from "./toolchain.js";

// What the whole-server tests share: a run as the server's API shows it, the model's finish call,
// and the leftover check of the teardown.

/** The loopback model stub (`driver/model-stub.mjs`). */
export interface ModelStub {
  readonly baseUrl: string;
  readonly requests: { input?: unknown }[];
  close(): Promise<void>;
}

/** A run as `GET /api/issues/:id/runs` lists it. */
interface IssueRun {
  readonly runId: string;
  readonly status: string;
  readonly runtimeMode: string | null;
  readonly adapterType: string;
}

/** A run as `GET /api/heartbeat-runs/:id` shows it. */
interface HeartbeatRun {
  readonly status: string;
  readonly resultJson: Record<string, unknown> | null;
}

/** The model's `paperclip_finish` arguments: the task done with `summary`, its one criterion satisfied. */
export function finishArguments(summary: string): Record<string, unknown> {
  return {
    reportedWorkDisposition: "done",
    summary,
    completionClaim: {
      contractRevision: "1",
      objectiveSatisfied: true,
      criteria: [{ criterionId: "objective", status: "satisfied", evidenceRefs: [] }],
      remainingWork: [],
    },
    evidence: [],
    verification: [],
    attentionRequests: [],
    artifacts: [],
  };
}

/** The issue's run once it has left `queued` and `running`. */
function finishedRun(
  api: HostApi,
  issueId: string,
  server: PaperclipServer,
  timeoutMs: number,
): Promise<IssueRun> {
  return waitFor(
    "the run finishes",
    async () => {
      const runs = await api.get<IssueRun[]>(`/issues/${issueId}/runs`);
      return runs.find((candidate) => !["queued", "running"].includes(candidate.status));
    },
    { timeoutMs, process: server.process },
  );
}

/**
 * The run once the heartbeat has written the adapter's result (`nativeTerminal`, `summary`).
 * A finished status alone does not say so: the server's native finalizer can commit and project
 * the terminal status before the heartbeat's own write of the result lands (its "narrow window
 * between adapter completion and this live write"), wider when the runner's close waits on a
 * remote sandbox.
 */
function recordedRun(
  api: HostApi,
  runId: string,
  server: PaperclipServer,
  timeoutMs: number,
): Promise<HeartbeatRun> {
  return waitFor(
    "the run's adapter result is recorded",
    async () => {
      const run = await api.get<HeartbeatRun>(`/heartbeat-runs/${runId}`);
      return run.resultJson !== null && "nativeTerminal" in run.resultJson ? run : undefined;
    },
    { timeoutMs, process: server.process },
  );
}

/** The run log's own messages (the server's, the runner's: not the PRP events), the last 40. */
function serverMessages(log: string): string {
  return log
    .split("\n")
    .filter((line) => line !== "" && !line.includes("paperclip.prp.event"))
    .slice(-40)
    .join("\n");
}

/** Assigns `agentId` a greeting task (the assignment wakes the agent); returns the issue's id. */
export async function assignGreeting(
  api: HostApi,
  companyId: string,
  agentId: string,
  projectId?: string,
): Promise<string> {
  const issue = await api.post<{ id: string }>(`/companies/${companyId}/issues`, {
    title: "Say hello",
    description: "Answer with a greeting.",
    assigneeAgentId: agentId,
    status: "todo",
    ...(projectId === undefined ? {} : { projectId }),
  });
  return issue.id;
}

/**
 * Waits for the issue's run and asserts what every answered task shows: the run succeeded on the
 * native runtime with `paperclip_runner`, its recorded result is the model's `answer` (the
 * runner's proposal, accepted), and the issue is done. Returns the run's log.
 */
export async function expectAnsweredTask(
  api: HostApi,
  server: PaperclipServer,
  issueId: string,
  answer: string,
  timeoutMs: number,
): Promise<string> {
  const finished = await finishedRun(api, issueId, server, timeoutMs);
  const log = (await api.get<{ content: string }>(`/heartbeat-runs/${finished.runId}/log`)).content;
  const context = log.slice(-6_000);
  expect(finished, context).toMatchObject({
    status: "succeeded",
    runtimeMode: "native",
    adapterType: "paperclip_runner",
  });
  // The heartbeat writes the result once the runner's close is over: with a remote sandbox, after
  // the workspace's restore and the runner's exit, each a few paced CreateOS calls.
  const run = await recordedRun(api, finished.runId, server, timeoutMs).catch(async (error: unknown) => {
    const latest = await api.get<HeartbeatRun>(`/heartbeat-runs/${finished.runId}`);
    const tail = (await api.get<{ content: string }>(`/heartbeat-runs/${finished.runId}/log`)).content;
    throw new Error(
      `${String(error)}; resultJson: ${JSON.stringify(latest.resultJson)}; log: ${serverMessages(tail)}`,
    );
  });
  expect(run.resultJson, context).toMatchObject({
    summary: answer,
    nativeResult: { schema: "paperclip.run_result.v1", summary: answer, reportedWorkDisposition: "done" },
    nativeTerminal: { runTerminalState: "succeeded", turnTerminalState: "completed" },
    issueStatusAfter: "done",
  });
  // The runner's committed stream, as the server recorded it: the result accepted, the run terminal.
  expect(log).toContain("run.result.accepted");
  expect(log).toContain("run.terminal");
  expect((await api.get<{ status: string }>(`/issues/${issueId}`)).status).toBe("done");
  return log;
}

/**
 * After the server stopped: the processes under `workDir` still there once the embedded
 * Postgres's backends had time to end after their postmaster, each killed.
 */
async function leftoversUnder(workDir: string): Promise<{ pid: number; command: string }[]> {
  const leftovers = await waitFor(
    "every process of the run exits",
    async () => {
      const live = await processesUnder(workDir);
      return live.length === 0 ? live : undefined;
    },
    { timeoutMs: 15_000 },
  ).catch(() => processesUnder(workDir));
  killAll(leftovers);
  return leftovers;
}

/**
 * A whole-server test's teardown: `stopServer` (the server and what serves it), then the
 * leftovers under `workDir`, then `closers` (the model stub...), then `workDir` removed, whatever
 * failed; nothing of the run may have outlived the server.
 */
export async function endServerRun(
  workDir: string,
  stopServer: () => Promise<void> | undefined,
  ...closers: ({ close(): Promise<void> } | undefined)[]
): Promise<void> {
  let leftovers: { pid: number; command: string }[] = [];
  try {
    // The server starts the runner in a process group of its own, and the embedded Postgres's
    // backends end shortly after their postmaster: whatever is still there then is a leftover.
    await stopServer();
    leftovers = await leftoversUnder(workDir);
    for (const closer of closers) await closer?.close();
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  expect(leftovers, "nothing of the run outlives the server").toEqual([]);
}

/**
 * The server as the local whole-server tests start it: our runner's bin as its runner, `binDir`
 * first on its PATH (the provider wrapper its runners find), and its scratch directories (one per
 * run under os.tmpdir(), left behind) kept in the work directory, which the teardown removes.
 */
export async function startLocalServer(
  tools: CodexToolchain,
  workDir: string,
  logDir: string,
  binDir: string,
): Promise<PaperclipServer> {
  const serverTmp = path.join(workDir, "tmp");
  await mkdir(serverTmp);
  return await startPaperclipServer(tools, workDir, logDir, {
    pathPrefix: binDir,
    env: { PAPERCLIP_RUNNER_BINARY: OUR_RUNNER_BIN, TMPDIR: serverTmp },
  });
}
