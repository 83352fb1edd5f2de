import { access, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmulatorProcess } from "../src/emulator-process.js";
import type { HostApi, Lease, Plugin } from "../src/host-api.js";
import { useHostFixture } from "../src/host-fixture.js";
import { createCreateosEnvironment } from "../src/plugin-steps.js";
import { waitFor } from "../src/process-group.js";

// The plugin's worker going away while a run holds a lease and a command of that run is
// running in the sandbox: killed (the host restarts it), or stopped by disabling the plugin
// (the host stops it without releasing the lease). Neither may leave a sandbox running.

interface IssueRun {
  readonly runId: string;
  readonly status: string;
}

interface RunLease extends Lease {
  readonly heartbeatRunId: string | null;
  readonly metadata?: { readonly remoteExecutionTermination?: unknown } | null;
}

/** The host's view of the plugin's worker (`GET /api/plugins/:id/dashboard`). */
interface WorkerDiagnostics {
  readonly status: string;
  readonly pid: number | null;
  readonly totalCrashes: number;
}

let api: HostApi;
let emulator: EmulatorProcess;
let plugin: Plugin;
const host = useHostFixture("none", async (started) => {
  plugin = await started.installPlugin();
  api = started.api;
  emulator = started.emulator as EmulatorProcess;
});

const worker = async (): Promise<WorkerDiagnostics> =>
  (await api.get<{ worker: WorkerDiagnostics }>(`/plugins/${plugin.id}/dashboard`)).worker;

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

// Not under /tmp: the emulator (isolation "none") maps a command path under /tmp to the
// sandbox's own /tmp, as on CreateOS, so an agent there is "not installed" in the sandbox.
let agentsDir = "";
beforeAll(async () => {
  agentsDir = await mkdtemp("/var/tmp/paperclip-host-e2e-agents-");
});
afterAll(() => rm(agentsDir, { recursive: true, force: true }));

/**
 * An agent CLI that marks `NAME.started` and runs while `NAME.hold` exists (the sandbox's
 * processes run unconfined, on this host's files); the test removes the hold so the host's
 * later runs of the agent end at once.
 */
async function holdingAgent(name: string): Promise<{ command: string; started: string; hold: string }> {
  const dir = agentsDir;
  const started = path.join(dir, `${name}.started`);
  const hold = path.join(dir, `${name}.hold`);
  const command = path.join(dir, `${name}.sh`);
  // `started` holds the agent's cwd and the project's README.md as the agent sees them (written
  // whole, by a rename); `made-in-sandbox.txt` is for the host to bring back after the run.
  await writeFile(
    command,
    [
      "#!/bin/sh",
      `{ pwd; cat README.md; } > '${started}.part'; mv '${started}.part' '${started}'`,
      "echo made in the sandbox > made-in-sandbox.txt",
      `while [ -e '${hold}' ]; do sleep 0.2; done`,
      "",
    ].join("\n"),
  );
  await chmod(command, 0o755);
  await writeFile(hold, "");
  return { command, started, hold };
}

describe("the worker going away while a command runs (Node 24)", () => {
  let companyId = "";

  /** An environment of its own for each test: the host refuses config changes beside a pending cleanup. */
  const createEnvironment = async (name: string): Promise<string> =>
    (await createCreateosEnvironment(api, companyId, emulator, name)).id;

  /** A project of its own for each test, so no run waits on another test's workspace. */
  const createProject = async (name: string): Promise<string> => {
    const projectDir = path.join(host.workDir, `project-${name}`);
    await mkdir(projectDir);
    await writeFile(path.join(projectDir, "README.md"), "a project workspace\n");
    return (
      await api.post<{ id: string }>(`/companies/${companyId}/projects`, {
        name,
        status: "in_progress",
        workspace: { name: "main", cwd: projectDir, isPrimary: true },
      })
    ).id;
  };

  beforeAll(async () => {
    companyId = (await api.post<{ id: string }>("/companies", { name: "CreateOS worker" })).id;
  });

  const runLease = async (environmentId: string, runId: string) =>
    (await api.get<RunLease[]>(`/environments/${environmentId}/leases`)).find(
      (lease) => lease.heartbeatRunId === runId,
    );

  /** Starts a run of a holding agent and returns it with its lease, once its command runs. */
  async function runningCommand(name: string) {
    const agent = await holdingAgent(name);
    const environmentId = await createEnvironment(`createos-${name}`);
    const projectId = await createProject(name);
    const created = await api.post<{ id: string }>(`/companies/${companyId}/agents`, {
      name,
      adapterType: "kimi_local",
      adapterConfig: { engine: "cli", command: agent.command },
      defaultEnvironmentId: environmentId,
    });
    const issue = await api.post<{ id: string }>(`/companies/${companyId}/issues`, {
      title: `Hold ${name}`,
      description: "Run until told.",
      assigneeAgentId: created.id,
      status: "todo",
      projectId,
    });
    const options = { timeoutMs: 180_000, ...(host.server ? { process: host.server.process } : {}) };
    await waitFor(
      "the agent's command runs in the sandbox",
      async () => ((await exists(agent.started)) ? true : undefined),
      options,
    );
    const run = (await api.get<IssueRun[]>(`/issues/${issue.id}/runs`)).at(-1) as IssueRun;
    const sandboxId = (await runLease(environmentId, run.runId))?.providerLeaseId ?? "";
    expect(sandboxId).toMatch(/^sbx_/);
    expect(await emulator.sandboxStatus(sandboxId)).toBe("running");
    const ended = () =>
      waitFor(
        "the run ends",
        async () => {
          const current = (await api.get<IssueRun[]>(`/issues/${issue.id}/runs`)).find(
            (candidate) => candidate.runId === run.runId,
          );
          return current && !["queued", "running"].includes(current.status) ? current : undefined;
        },
        options,
      );
    const lease = () => runLease(environmentId, run.runId);
    return { agent, agentId: created.id, environmentId, run, sandboxId, ended, lease };
  }

  it("a worker killed mid-command: the host restarts it, and the restarted worker ends the lease", async () => {
    const { agent, agentId, run, sandboxId, ended, lease: runLeaseNow } = await runningCommand("crash");
    const before = await worker();
    expect(before.status).toBe("running");
    process.kill(before.pid as number, "SIGKILL");
    await rm(agent.hold);

    expect((await ended()).status).toBe("failed");
    const after = await waitFor(
      "the host restarts the worker",
      async () => {
        const current = await worker();
        return current.status === "running" && current.pid !== before.pid ? current : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(after.totalCrashes).toBe(before.totalCrashes + 1);
    // The host releases the failed run's lease once the run has ended. Usually that release
    // comes while the worker is down: the host keeps the lease for its cleanup sweep (every
    // 5 min, or at once on a retry of the failed run), and the sandbox runs on. On a loaded
    // machine the host may restart the worker first: the restarted worker then takes the
    // release itself. Which comes first is the host's scheduling; either way the restarted
    // worker ends a lease it never saw.
    const settled = await waitFor(
      "the host keeps the lease for cleanup, or the restarted worker releases it",
      async () => {
        const current = await runLeaseNow();
        return current?.status === "pending_cleanup" || current?.cleanupStatus ? current : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(settled.providerLeaseId).toBe(sandboxId);
    if (settled.status === "pending_cleanup") {
      expect(await emulator.sandboxStatus(sandboxId)).toBe("running");
      // Retrying the failed run sweeps it now.
      await api.post(`/agents/${agentId}/wakeup`, {
        source: "on_demand",
        reason: "retry_failed_run",
        triggerDetail: "manual",
        failedRunId: run.runId,
      });
    }
    const swept = await waitFor(
      "the lease is cleaned up",
      async () => {
        const current = await runLeaseNow();
        return current?.cleanupStatus === "success" ? current : undefined;
      },
      { timeoutMs: 120_000 },
    );
    expect(swept.providerLeaseId).toBe(sandboxId);
    expect(await emulator.sandboxStatus(sandboxId)).toBe("destroyed");
  }, 480_000);

  it("disabling the plugin mid-command deletes the run's sandbox on the way out", async () => {
    const { agent, sandboxId, ended } = await runningCommand("disable");
    try {
      const disabled = await api.post<Plugin>(`/plugins/${plugin.id}/disable`, { reason: "e2e" });
      expect(disabled.status).toBe("disabled");
      // The host stopped the worker without releasing the lease (it cannot ask a disabled
      // plugin to), so the worker's shutdown is what ended the sandbox.
      expect(await emulator.sandboxStatus(sandboxId)).toBe("destroyed");
      const run = await ended();
      console.info(`the run after the plugin was disabled: ${run.status}`);
      expect(run.status).not.toBe("succeeded");
    } finally {
      await rm(agent.hold, { force: true });
      await api.post(`/plugins/${plugin.id}/enable`);
    }
    await waitFor(
      "the plugin is ready again",
      async () => ((await api.get<Plugin>(`/plugins/${plugin.id}`)).status === "ready" ? true : undefined),
      { timeoutMs: 120_000 },
    );
    expect((await worker()).status).toBe("running");
  }, 480_000);

  it("a config changed while a run holds a lease: the run and its release keep the lease's config", async () => {
    const { agent, environmentId, sandboxId, ended, lease } = await runningCommand("config");
    // The new origin answers nothing: a step of the run sent there would fail.
    await api.request("PATCH", `/environments/${environmentId}`, {
      config: { apiUrl: "http://127.0.0.1:9" },
    });
    await rm(agent.hold);

    expect((await ended()).status).toBe("succeeded");
    const released = await waitFor(
      "the run's lease is released",
      async () => {
        const current = await lease();
        return current?.cleanupStatus ? current : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(released).toMatchObject({ status: "released", cleanupStatus: "success" });
    // The release's receipt, which the host records only when it names the lease's sandbox and
    // a `stopped` or `destroyed` state (remote-execution-termination.js).
    expect(released.metadata?.remoteExecutionTermination).toMatchObject({
      providerLeaseId: sandboxId,
      state: "destroyed",
    });
    expect(await emulator.sandboxStatus(sandboxId)).toBe("destroyed");
    // The agent ran in the workspace the plugin realized, on the project the host synced in
    // through the plugin's syncIn, and the host's restore brought its file back (syncOut).
    console.info(`the agent's view: ${JSON.stringify(await readFile(agent.started, "utf8"))}`);
    expect(await readFile(agent.started, "utf8")).toMatch(/paperclip-workspace\na project workspace\n$/);
    expect(await readFile(path.join(host.workDir, "project-config", "made-in-sandbox.txt"), "utf8")).toBe(
      "made in the sandbox\n",
    );
  }, 480_000);

  it("an operator cancelling the run: once its command ends, the release ends the sandbox", async () => {
    const { agent, run, sandboxId, ended, lease } = await runningCommand("cancel");
    await api.post(`/heartbeat-runs/${run.runId}/cancel`);
    expect((await ended()).status).toBe("cancelled");
    // The host (2026.916.1) has no way to stop a running remote command (no cancel RPC, and
    // its release with `cancelActiveWork` comes only during startup): the lease stays with the
    // command until the command ends, here when the test lets the agent go.
    await rm(agent.hold);
    const released = await waitFor(
      "the cancelled run's lease is released",
      async () => {
        const current = await lease();
        return current?.cleanupStatus ? current : undefined;
      },
      { timeoutMs: 120_000 },
    );
    expect(released.cleanupStatus).toBe("success");
    expect(await emulator.sandboxStatus(sandboxId)).toBe("destroyed");
  }, 480_000);
});
