import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForFile } from "@paperclipai/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNNING_COMMAND_DEADLINE_MS } from "./support/command-deadline.js";
import { startTestEmulator } from "./support/emulator-fixture.js";
import { pausedLease } from "./support/paused-lease.js";
import { hostReusable } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";

// What the Paperclip host decides on is a hook's result or the message of what it throws (the
// SDK forwards neither code nor details). Each case matches upstream's plugin (issue 20).

let emulator: CreateosEmulator;
// Before the afterAll below, so it is removed after the emulator closed (hooks run in reverse).
const host = tempDirForFile("createos-outcomes-");

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

const EXPIRED = { providerLeaseId: null, metadata: { expired: true } };
/** Upstream's answer plus the sentinel the host reads as `identity_mismatch` (else `not_found`). */
const MISMATCHED = {
  providerLeaseId: null,
  metadata: { expired: true, workspaceSentinel: { result: "mismatched" } },
};

function sandbox(id: string | null) {
  return emulator.sandboxes().find((s) => s.id === id);
}

const deletes = () => emulator.requests().filter((r) => r.route === "sandbox.delete").length;
const reads = (id: string | null) =>
  emulator.requests().filter((r) => r.route === "sandbox.get" && r.path === `/v1/sandboxes/${id}`).length;

describe("resume: a lease that cannot be resumed is expired, not an error", () => {
  it("a changed shape, rootfs or region expires without a request; the sandbox is kept", async () => {
    const t = await pluginUnderTest(emulator, { reuseLease: true });
    const { lease, params } = await pausedLease(t, "run-spec");
    const before = emulator.requests().length;
    for (const changed of [{ shape: "s-2vcpu-4gb" }, { rootfs: "other" }, { region: "other" }]) {
      expect(await t.harness.resumeLease({ ...params, config: { ...t.base.config, ...changed } })).toEqual(
        EXPIRED,
      );
    }
    expect(emulator.requests()).toHaveLength(before);
    expect(sandbox(lease.providerLeaseId)?.status).toBe("paused");
  });

  it("a wrong or malformed workspace marker expires the lease as an identity mismatch and never deletes", async () => {
    const t = await pluginUnderTest(emulator, { reuseLease: true });
    const { lease, params } = await pausedLease(t, "run-marker");
    const deletesBefore = deletes();
    for (const marker of ["0".repeat(64), "not-a-marker"]) {
      const resumed = await t.harness.resumeLease({
        ...params,
        leaseMetadata: { ...lease.metadata!, marker },
      });
      expect(resumed).toEqual(MISMATCHED);
    }
    expect(deletes()).toBe(deletesBefore);
    // The right marker still resumes the same sandbox.
    expect(await t.harness.resumeLease(params)).toMatchObject({
      providerLeaseId: lease.providerLeaseId,
      metadata: { resumedLease: true, sandboxId: lease.providerLeaseId },
    });
    await t.harness.destroyLease(params);
  });

  it("a workspace whose marker file is gone expires as an identity mismatch, keeping the sandbox", async () => {
    const t = await pluginUnderTest(emulator, { reuseLease: true });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-wiped" });
    await t.harness.execute({
      ...t.lease(lease),
      command: "/bin/rm",
      args: ["-f", "/paperclip-workspace/.paperclip-runtime/.paperclip-createos-lease"],
    });
    const params = {
      ...t.base,
      providerLeaseId: lease.providerLeaseId!,
      leaseMetadata: hostReusable(lease.metadata!),
    };
    expect((await t.harness.releaseLease(params))?.state).toBe("stopped");
    const deletesBefore = deletes();
    expect(await t.harness.resumeLease(params)).toEqual(MISMATCHED);
    expect(deletes()).toBe(deletesBefore);
    await t.harness.destroyLease(params);
  });

  it.each([
    ["destroyed", false],
    ["gone (404)", true],
  ])(
    "a sandbox %s behind the plugin's back expires the lease; a fresh one is acquired",
    async (_name, forget) => {
      const t = await pluginUnderTest(emulator, { reuseLease: true });
      const { lease, params } = await pausedLease(t, `run-deleted-${forget}`);
      expect(await emulator.deleteSandbox(lease.providerLeaseId!, { forget })).toBe(true);
      const deletesBefore = deletes();
      expect(await t.harness.resumeLease(params)).toEqual(EXPIRED);
      expect(deletes()).toBe(deletesBefore);
      const fresh = await t.harness.acquireLease({ ...t.base, runId: "run-next" });
      expect(fresh.providerLeaseId).not.toBe(lease.providerLeaseId);
      const ran = await t.harness.execute({ ...t.lease(fresh), command: "/bin/echo", args: ["fresh"] });
      expect(ran).toMatchObject({ exitCode: 0, stdout: "fresh\n" });
      await t.harness.destroyLease({
        ...params,
        providerLeaseId: fresh.providerLeaseId!,
        leaseMetadata: fresh.metadata!,
      });
    },
  );

  it("a transient status read failure is retried, beyond upstream, and the lease resumes", async () => {
    const t = await pluginUnderTest(emulator, { reuseLease: true });
    const { lease, params } = await pausedLease(t, "run-503");
    emulator.faults.set({
      faults: [
        {
          kind: "http-status",
          route: "sandbox.get",
          status: 503,
          sandboxId: lease.providerLeaseId!,
          times: 1,
        },
      ],
    });
    const deletesBefore = deletes();
    const readsBefore = reads(lease.providerLeaseId);
    const resumed = await t.harness.resumeLease(params);
    emulator.faults.clear();
    expect(resumed).toMatchObject({
      providerLeaseId: lease.providerLeaseId,
      metadata: { resumedLease: true },
    });
    expect(reads(lease.providerLeaseId) - readsBefore).toBeGreaterThanOrEqual(2);
    expect(deletes()).toBe(deletesBefore);
    expect(sandbox(lease.providerLeaseId)?.status).toBe("running");
    await t.harness.destroyLease(params);
  });

  it("a transient failure that outlasts the retries is thrown and deletes nothing", async () => {
    const t = await pluginUnderTest(emulator, { reuseLease: true });
    const { lease, params } = await pausedLease(t, "run-503-long");
    emulator.faults.set({
      faults: [
        {
          kind: "http-status",
          route: "sandbox.get",
          status: 503,
          sandboxId: lease.providerLeaseId!,
          times: 100,
        },
      ],
    });
    const deletesBefore = deletes();
    const readsBefore = reads(lease.providerLeaseId);
    const error = await caught(t.harness.resumeLease(params));
    emulator.faults.clear();
    expect(error.message).toBe("CreateOS request failed (HTTP 503) during sandbox lifecycle.");
    expect(reads(lease.providerLeaseId) - readsBefore).toBe(5);
    expect(deletes()).toBe(deletesBefore);
    expect(sandbox(lease.providerLeaseId)?.status).toBe("paused");
    await t.harness.destroyLease(params);
  });

  it("a resume ends within the host's resume limit, not lifecycleTimeoutMs, and keeps the sandbox", async () => {
    // lifecycleTimeoutMs is 10 s here; the host limit is cut to 1.5 s (budget 1 s after the margin).
    const t = await pluginUnderTest(emulator, { reuseLease: true }, "env-1", {
      hostLimits: { resumeMs: 1_500, marginMs: 500 },
    });
    const { lease, params } = await pausedLease(t, "run-slow-resume");
    emulator.setSandboxStatus(lease.providerLeaseId!, "resuming");
    const deletesBefore = deletes();
    const error = await caught(t.harness.resumeLease(params));
    expect(error.code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    expect(error.message).toBe("CreateOS resume did not finish within the host's limit (1000 ms).");
    expect(deletes()).toBe(deletesBefore);
    expect(sandbox(lease.providerLeaseId)?.status).toBe("resuming");
    await t.harness.destroyLease(params);
  });

  it("a resume ends within the host's limit for the call, shorter with a small timeoutMs", async () => {
    // The host waits max(timeoutMs, bridgeRequestTimeoutMs) + 30 s for one resume call (cut to
    // 1 s here), not the 60 s of the whole resume; past it the host sends the resume again.
    const t = await pluginUnderTest(emulator, { reuseLease: true }, "env-1", {
      hostLimits: { rpcOverheadMs: 1_000, marginMs: 500 },
    });
    const { lease, params } = await pausedLease(t, "run-short-resume");
    emulator.setSandboxStatus(lease.providerLeaseId!, "resuming");
    const error = await caught(
      t.harness.resumeLease({ ...params, config: { ...params.config, timeoutMs: 500 } }),
    );
    expect(error.code).toBe("ERR_CREATEOS_HOST_DEADLINE");
    expect(error.message).toBe("CreateOS resume did not finish within the host's limit (1000 ms).");
    expect(sandbox(lease.providerLeaseId)?.status).toBe("resuming");
    await t.harness.destroyLease(params);
  });

  it("a sandbox in the error state is not proof of loss: resume throws and keeps it", async () => {
    const t = await pluginUnderTest(emulator, { reuseLease: true });
    const { lease, params } = await pausedLease(t, "run-error");
    emulator.setSandboxStatus(lease.providerLeaseId!, "error");
    const broken = await caught(t.harness.resumeLease(params));
    expect(broken.message).toBe("CreateOS sandbox is error; expected running.");
    expect(broken.code).toBe("ERR_CREATEOS_SANDBOX_STATE");
    expect(sandbox(lease.providerLeaseId)?.status).toBe("error");
    await t.harness.destroyLease(params);
  });

  it("a lease of another company or environment is refused with upstream's text, before any request", async () => {
    const t = await pluginUnderTest(emulator, { reuseLease: true });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-foreign" });
    const params = { ...t.base, providerLeaseId: lease.providerLeaseId!, leaseMetadata: lease.metadata! };
    const before = emulator.requests().length;
    for (const other of [{ companyId: "company-2" }, { environmentId: "env-2" }]) {
      const lifecycle = "CreateOS lease does not belong to this environment.";
      expect((await caught(t.harness.resumeLease({ ...params, ...other }))).message).toBe(lifecycle);
      expect((await caught(t.harness.releaseLease({ ...params, ...other }))).message).toBe(lifecycle);
      expect((await caught(t.harness.destroyLease({ ...params, ...other }))).message).toBe(lifecycle);
      const execute = await caught(t.harness.execute({ ...t.lease(lease), ...other, command: "true" }));
      expect(execute.message).toBe("CreateOS execution requires a lease from this environment.");
      const realize = await caught(
        t.harness.realizeWorkspace({ ...t.lease(lease), ...other, workspace: {} }),
      );
      expect(realize.message).toBe("CreateOS workspace requires a lease from this environment.");
    }
    expect(emulator.requests()).toHaveLength(before);
    await t.harness.destroyLease(params);
  });
});

describe("commands", () => {
  const staged = (id: string | null) =>
    readdir(sandbox(id)!.tmpDir).then((names) => names.filter((name) => name.startsWith("paperclip-stdin-")));

  it("stdin is removed from the sandbox after every command: success, failure, timeout", async () => {
    const t = await pluginUnderTest(emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-stdin" });
    const ok = await t.harness.execute({ ...t.lease(lease), command: "cat", stdin: "secret prompt\n" });
    expect(ok.stdout).toBe("secret prompt\n");
    expect(await staged(lease.providerLeaseId)).toEqual([]);
    const failed = await t.harness.execute({
      ...t.lease(lease),
      command: "/bin/sh",
      args: ["-c", "cat >/dev/null; exit 3"],
      stdin: "x",
    });
    expect(failed.exitCode).toBe(3);
    expect(await staged(lease.providerLeaseId)).toEqual([]);
    const late = await t.harness.execute({
      ...t.lease(lease),
      command: "/bin/sh",
      args: ["-c", "sleep 30"],
      stdin: "y",
      timeoutMs: RUNNING_COMMAND_DEADLINE_MS,
    });
    expect(late.timedOut).toBe(true);
    expect(await staged(lease.providerLeaseId)).toEqual([]);
    await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
  });

  it("a kill that fails tells the host termination is unconfirmed; the lease is blocked until destroyed", async () => {
    const t = await pluginUnderTest(emulator, { reuseLease: true });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-kill" });
    emulator.faults.set({
      faults: [
        {
          kind: "http-status",
          route: "process.kill",
          status: 500,
          sandboxId: lease.providerLeaseId!,
          times: "always",
        },
      ],
    });
    const error = await caught(
      t.harness.execute({
        ...t.lease(lease),
        command: "/bin/sh",
        args: ["-c", "sleep 30"],
        timeoutMs: RUNNING_COMMAND_DEADLINE_MS,
      }),
    );
    emulator.faults.clear();
    expect(error.message).toBe("CreateOS command cleanup failed; process termination is unconfirmed.");
    expect(emulator.processes().some((p) => p.sandboxId === lease.providerLeaseId && p.running)).toBe(true);
    const blocked = await caught(t.harness.execute({ ...t.lease(lease), command: "true" }));
    expect(blocked.code).toBe("ERR_CREATEOS_LEASE_BLOCKED");
    // Release of a blocked lease destroys it (never pauses it for reuse): the process dies with it.
    const params = { ...t.base, providerLeaseId: lease.providerLeaseId!, leaseMetadata: lease.metadata! };
    expect(await t.harness.releaseLease(params)).toEqual({
      providerLeaseId: lease.providerLeaseId,
      state: "destroyed",
    });
    expect(sandbox(lease.providerLeaseId)?.status).toBe("destroyed");
  });
});

describe("acquire and probe", () => {
  it("a lease with a guaranteed expiry is refused before any provider call", async () => {
    const t = await pluginUnderTest(emulator);
    const before = emulator.requests().length;
    const sandboxes = emulator.sandboxes().length;
    const error = await caught(
      t.harness.acquireLease({ ...t.base, runId: "login", requestedExpiresAt: "2026-09-08T12:00:00Z" }),
    );
    expect(error.message).toBe("CreateOS does not yet support leases with a guaranteed expiration deadline.");
    expect(error.code).toBe("ERR_CREATEOS_EXPIRY_UNSUPPORTED");
    expect(emulator.requests()).toHaveLength(before);
    expect(emulator.sandboxes()).toHaveLength(sandboxes);
  });

  it("a shape is required when saving; one outside the catalog is warned about and refused by CreateOS", async () => {
    const t = await pluginUnderTest(emulator);
    const { shape: _omitted, ...withoutShape } = t.base.config;
    expect(await t.harness.validateConfig({ driverKey: "createos", config: withoutShape })).toEqual({
      ok: false,
      errors: ["CreateOS requires a shape from its shape catalog."],
    });
    const odd = await t.harness.validateConfig({
      driverKey: "createos",
      config: { ...t.base.config, shape: "small" },
    });
    expect(odd.warnings).toContain(
      'shape "small" is not in the CreateOS shape catalog (s-0.25vcpu-512mb … s-8vcpu-16gb)',
    );
    const error = await caught(
      t.harness.acquireLease({ ...t.base, config: { ...t.base.config, shape: "small" }, runId: "run-small" }),
    );
    expect(error.message).toBe("CreateOS request failed (HTTP 400) during sandbox lifecycle.");
  });
});

describe("sync in to the workspace itself (the host's workspace sync)", () => {
  it("merges into /paperclip-workspace and keeps the lease marker, so the lease still resumes", async () => {
    const t = await pluginUnderTest(emulator, { reuseLease: true });
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-root" });
    const ws = sandbox(lease.providerLeaseId)!.workspaceDir;
    await writeFile(join(ws, "kept.txt"), "from an earlier run\n");
    const source = join(host, "workspace");
    await mkdir(join(source, "src"), { recursive: true });
    await writeFile(join(source, "src/main.ts"), "export {};\n");
    const result = await t.sync.in({
      ...t.lease(lease),
      operations: [
        {
          operationId: "workspace",
          files: [{ sourcePath: source, targetPath: "/paperclip-workspace", kind: "directory" }],
        },
      ],
    });
    expect(result.operations).toEqual([
      { operationId: "workspace", filesTransferred: 1, bytesTransferred: expect.any(Number) },
    ]);
    expect(await readFile(join(ws, "src/main.ts"), "utf8")).toBe("export {};\n");
    expect(await readFile(join(ws, "kept.txt"), "utf8")).toBe("from an earlier run\n");
    const params = {
      ...t.base,
      providerLeaseId: lease.providerLeaseId!,
      leaseMetadata: hostReusable(lease.metadata!),
    };
    expect((await t.harness.releaseLease(params))?.state).toBe("stopped");
    expect((await t.harness.resumeLease(params)).providerLeaseId).toBe(lease.providerLeaseId);
    await t.harness.destroyLease(params);
  });
});

describe("sync in with followSymlinks", () => {
  it("follows links inside the source and refuses one that leaves it, before any request", async () => {
    const t = await pluginUnderTest(emulator);
    const lease = await t.harness.acquireLease({ ...t.base, runId: "run-links" });
    const source = join(host, "source");
    await mkdir(join(source, "docs"), { recursive: true });
    await writeFile(join(source, "docs/readme.txt"), "inside\n");
    await symlink("docs/readme.txt", join(source, "alias.txt"));
    await symlink("docs", join(source, "docs-link"));
    await writeFile(join(host, "secret.env"), "TOKEN=host-secret\n");
    const directory = {
      sourcePath: source,
      targetPath: "/paperclip-workspace/tree",
      kind: "directory" as const,
      followSymlinks: true,
    };
    await t.sync.in({ ...t.lease(lease), operations: [{ operationId: "inside", files: [directory] }] });
    const ws = sandbox(lease.providerLeaseId)!.workspaceDir;
    expect(await readFile(join(ws, "tree/alias.txt"), "utf8")).toBe("inside\n");
    expect(await readFile(join(ws, "tree/docs-link/readme.txt"), "utf8")).toBe("inside\n");

    await symlink(join(host, "secret.env"), join(source, "escape"));
    const before = emulator.requests().length;
    const error = await caught(
      t.sync.in({
        ...t.lease(lease),
        operations: [
          {
            operationId: "outside",
            files: [
              {
                sourcePath: join(source, "docs/readme.txt"),
                targetPath: "/paperclip-workspace/first.txt",
                kind: "file",
              },
              directory,
            ],
          },
        ],
      }),
    );
    expect(error.code).toBe("ERR_CREATEOS_SYNC_LINK_ESCAPES");
    expect(error.message).toContain("does not support followSymlinks for host directory uploads");
    expect(error.details).toMatchObject({ link: "./escape" });
    expect(emulator.requests()).toHaveLength(before);
    // Excluded, the same link is never read.
    await t.sync.in({
      ...t.lease(lease),
      operations: [{ operationId: "excluded", files: [{ ...directory, exclude: ["escape"] }] }],
    });
    await t.harness.destroyLease({
      ...t.base,
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata!,
    });
  });
});
