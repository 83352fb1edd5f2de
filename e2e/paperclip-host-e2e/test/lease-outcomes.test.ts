import { mkdtemp, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { EmulatorProcess } from "../src/emulator-process.js";
import type { HostApi, Lease } from "../src/host-api.js";
import { useHostFixture } from "../src/host-fixture.js";
import { createCreateosEnvironment } from "../src/plugin-steps.js";
import { waitFor } from "../src/process-group.js";

// What the host decides from a lease hook's outcome (issue 20, points 1 and 4), through its own
// heartbeat runs. The sandboxes' processes run unconfined: the host starts its callback bridge
// in the background of one command and talks to it from the next, as a CreateOS VM allows.

/** A run as `GET /api/issues/:id/runs` lists it. */
interface IssueRun {
  readonly runId: string;
  readonly status: string;
  readonly retryOfRunId: string | null;
}

interface RunLease extends Lease {
  readonly heartbeatRunId: string | null;
  readonly leasePolicy: string;
  readonly metadata?: {
    readonly remoteExecutionTermination?: unknown;
    readonly sandboxLeaseAcquisition?: unknown;
  } | null;
}

const ENDED = ["succeeded", "failed", "cancelled", "timed_out"];

let api: HostApi;
let emulator: EmulatorProcess;
const host = useHostFixture("none", async (started) => {
  await started.installPlugin();
  api = started.api;
  emulator = started.emulator as EmulatorProcess;
});

/** Waits until `runId` has ended and returns it. */
function ended(issueId: string, find: (runs: IssueRun[]) => IssueRun | undefined): Promise<IssueRun> {
  return waitFor(
    "the run ends",
    async () => {
      const run = find(await api.get<IssueRun[]>(`/issues/${issueId}/runs`));
      return run && ENDED.includes(run.status) ? run : undefined;
    },
    { timeoutMs: 150_000, ...(host.server ? { process: host.server.process } : {}) },
  );
}

describe("lease outcomes the real host acts on (Node 24)", () => {
  let companyId = "";
  let environmentId = "";

  beforeAll(async () => {
    companyId = (await api.post<{ id: string }>("/companies", { name: "CreateOS leases" })).id;
    // `warm`: the host binds the issue to one execution workspace, so its runs share a lease.
    environmentId = (
      await createCreateosEnvironment(api, companyId, emulator, "createos-reuse", {
        reuseLease: true,
        runnerLifecycleMode: "warm",
      })
    ).id;
  });

  /**
   * A project with a workspace of its own on the host, an agent of the environment whose CLI is
   * `command`, and an issue assigned to it (which starts the agent's run).
   */
  const assignedIssue = async (input: {
    project: string;
    agent: string;
    command: string;
    title: string;
    description: string;
  }) => {
    const projectDir = await mkdtemp(path.join(host.workDir, "project-"));
    await writeFile(path.join(projectDir, "README.md"), "a project workspace\n");
    const project = await api.post<{ id: string }>(`/companies/${companyId}/projects`, {
      name: input.project,
      status: "in_progress",
      workspace: { name: "main", cwd: projectDir, isPrimary: true },
    });
    const agent = await api.post<{ id: string }>(`/companies/${companyId}/agents`, {
      name: input.agent,
      adapterType: "kimi_local",
      adapterConfig: { engine: "cli", command: input.command },
      defaultEnvironmentId: environmentId,
    });
    const issue = await api.post<{ id: string }>(`/companies/${companyId}/issues`, {
      title: input.title,
      description: input.description,
      assigneeAgentId: agent.id,
      status: "todo",
      projectId: project.id,
    });
    return { agent, issue };
  };

  it("a sandbox deleted behind the plugin's back gives the next heartbeat run a fresh lease", async () => {
    const { agent, issue } = await assignedIssue({
      project: "Reuse",
      agent: "Worker",
      // The agent's CLI is `true`: the run's work is the host's own (sync, bridge, restore).
      command: "true",
      title: "Work in the sandbox",
      description: "Run once.",
    });
    const leasesOf = async () => api.get<RunLease[]>(`/environments/${environmentId}/leases`);
    const runLease = async (runId: string) =>
      (await leasesOf()).find((lease) => lease.heartbeatRunId === runId);

    // The assignment's run, then the host's one retry of it (the run left no issue comment).
    const first = await ended(issue.id, (runs) => runs.at(-1));
    const retry = await ended(issue.id, (runs) => runs.find((run) => run.retryOfRunId === first.runId));
    expect([first.status, retry.status]).toEqual(["succeeded", "succeeded"]);
    const sandboxId = (await runLease(first.runId))?.providerLeaseId ?? "";
    expect(await runLease(first.runId)).toMatchObject({ leasePolicy: "reuse_by_environment" });
    // The retry resumed the first run's sandbox through the plugin (the host read a non-empty
    // providerLeaseId from its resume).
    expect(await runLease(retry.runId)).toMatchObject({
      providerLeaseId: sandboxId,
      metadata: { sandboxLeaseAcquisition: { outcome: "resumed" } },
    });
    expect(await emulator.sandboxStatus(sandboxId)).toBe("running");
    // A run's lease is released a moment after the run ends; until then the host does not offer
    // it for reuse, and the next run would create a sandbox without trying to resume this one.
    await waitFor(
      "the retry's lease released for reuse",
      async () => {
        const lease = await runLease(retry.runId);
        return lease && ["released", "retained"].includes(lease.status) ? lease : undefined;
      },
      { timeoutMs: 60_000 },
    );

    await emulator.deleteSandbox(sandboxId);
    const woken = await api.post<{ id: string }>(`/agents/${agent.id}/wakeup`, {
      source: "on_demand",
      reason: "after the sandbox was deleted",
      payload: { issueId: issue.id },
    });
    const next = await ended(issue.id, (runs) => runs.find((run) => run.runId === woken.id));
    expect(next.status).toBe("succeeded");
    const fresh = await runLease(next.runId);
    expect(fresh?.providerLeaseId).toMatch(/^sbx_/);
    expect(fresh?.providerLeaseId).not.toBe(sandboxId);
    // The host read the resume's `metadata.expired: true` as the sandbox not found.
    expect(fresh?.metadata?.sandboxLeaseAcquisition).toEqual({ outcome: "replacement", reason: "not_found" });
    expect(await emulator.sandboxStatus(fresh?.providerLeaseId ?? "")).toBe("running");
    // Had resume thrown instead of answering `expired`, the host would have failed this run
    // (ReusableSandboxResumeError) rather than acquire a fresh lease. Which old lease row it then
    // marks, and when, varies from run to run, so the rows' statuses are not asserted.
  }, 480_000);

  it("a failed warm run's sandbox is paused by the release, which the host records as stopped", async () => {
    const { issue } = await assignedIssue({
      project: "Paused",
      agent: "Failing worker",
      // `false`: the run fails, so even a warm run's sandbox is stopped, not kept running
      // (`providerResourceDispositionForTerminalRun` in heartbeat.js: `stop_and_retain`).
      command: "false",
      title: "Fail in the sandbox",
      description: "Run and fail.",
    });
    const runLease = async (runId: string) =>
      (await api.get<RunLease[]>(`/environments/${environmentId}/leases`)).find(
        (lease) => lease.heartbeatRunId === runId,
      );

    const first = await ended(issue.id, (runs) => runs.at(-1));
    expect(first.status).toBe("failed");
    const released = await waitFor(
      "the failed run's lease is released",
      async () => {
        const lease = await runLease(first.runId);
        return lease?.cleanupStatus ? lease : undefined;
      },
      { timeoutMs: 60_000 },
    );
    const sandboxId = released.providerLeaseId ?? "";
    expect(sandboxId).toMatch(/^sbx_/);
    // The release's receipt, recorded only when it names this sandbox and a confirmed state.
    expect(released.metadata?.remoteExecutionTermination).toMatchObject({
      providerLeaseId: sandboxId,
      state: "stopped",
    });

    // Paused, not deleted: the host keeps the lease for the next run of this workspace (its
    // retry of the failed run comes 30 s later, `BOUNDED_TRANSIENT_HEARTBEAT_RETRY_DELAYS_MS`).
    expect(released).toMatchObject({ status: "released", cleanupStatus: "success" });
    expect(await emulator.sandboxStatus(sandboxId)).toBe("paused");
  }, 480_000);

  it("the host's one caller of a guaranteed expiry refuses this provider before any lease", async () => {
    // `requestedExpiresAt` is sent only by the setup-token login, which needs a provider with a
    // login terminal (neither upstream's plugin nor ours declares one).
    const refused = await api
      .post(`/companies/${companyId}/setup-token-login-sessions`, {
        environmentId,
        adapterType: "claude_local",
      })
      .then(
        () => "started",
        (error: Error) => error.message,
      );
    expect(refused).toMatch(
      /HTTP 422 .*The sandbox provider does not support the Claude setup-token login\./,
    );
    // A login lease is the one without a heartbeat run.
    const leases = await api.get<RunLease[]>(`/environments/${environmentId}/leases`);
    expect(leases.filter((lease) => lease.heartbeatRunId === null)).toEqual([]);
  });
});
