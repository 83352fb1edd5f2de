import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import { PLUGIN_RPC_ERROR_CODES } from "@paperclipai/plugin-sdk";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manifest } from "../src/manifest.js";
import { startTestEmulator } from "./support/emulator-fixture.js";
import { emulatorConfig } from "./support/plugin-harness.js";
import { type Notification, WorkerHost } from "./support/worker-host.js";

const packageRoot = new URL("..", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", packageRoot), "utf8")) as {
  paperclipPlugin: { worker: string; manifest: string };
};

let emulator: CreateosEmulator;
let worker: WorkerHost;

beforeAll(async () => {
  emulator = await startTestEmulator();
  // Started the way the host starts it: `node <paperclipPlugin.worker>`, JSON-RPC on stdio.
  const { CREATEOS_API_KEY: _unset, ...env } = process.env;
  worker = WorkerHost.start(fileURLToPath(new URL(pkg.paperclipPlugin.worker, packageRoot)), env);
});

afterAll(async () => {
  worker.kill();
  await emulator.close();
});

const base = () => ({
  driverKey: "createos",
  companyId: "company-1",
  environmentId: "env-rpc",
  config: emulatorConfig(emulator),
});

describe("the worker over its stdio JSON-RPC protocol", () => {
  it("serves the whole lifecycle with live output as execute.log notifications", async () => {
    const init = await worker.call<{ ok: boolean; supportedMethods: string[] }>("initialize", {
      manifest,
      config: {},
      instanceInfo: { instanceId: "test-instance", hostVersion: "2026.916.1" },
      apiVersion: 1,
    });
    expect(init.ok).toBe(true);
    // No instance settings to test: the host shows its "Test configuration" only for this method.
    expect(init.supportedMethods).not.toContain("validateConfig");
    expect(init.supportedMethods).toEqual(
      expect.arrayContaining([
        "health",
        "shutdown",
        "environmentValidateConfig",
        "environmentProbe",
        "environmentAcquireLease",
        "environmentResumeLease",
        "environmentReleaseLease",
        "environmentDestroyLease",
        "environmentRealizeWorkspace",
        "environmentExecute",
        "environmentSyncIn",
        "environmentSyncOut",
      ]),
    );

    const validation = await worker.call<{ ok: boolean }>("environmentValidateConfig", {
      driverKey: "createos",
      config: base().config,
    });
    expect(validation.ok).toBe(true);

    const lease = await worker.call<{ providerLeaseId: string; metadata: Record<string, unknown> }>(
      "environmentAcquireLease",
      { ...base(), runId: "run-rpc" },
      { id: "inv-acquire", companyId: "company-1" },
    );
    expect(emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)?.status).toBe("running");

    emulator.faults.set({
      faults: [
        { kind: "drop-stream", mode: "reset", afterFrames: 2 },
        { kind: "http-status", route: "process.connect", status: 503, skip: 1 },
      ],
    });
    const result = await worker.call<{ exitCode: number; stdout: string; stderr: string }>(
      "environmentExecute",
      {
        ...base(),
        lease,
        command: "/bin/bash",
        args: [
          "-c",
          'for i in $(seq 1 5); do for j in $(seq 1 30); do echo "row $i.$j ✓"; done; sleep 0.03; done; echo done >&2',
        ],
      },
      { id: "inv-exec", companyId: "company-1" },
    );
    emulator.faults.clear();
    const expected = Array.from(
      { length: 150 },
      (_, k) => `row ${Math.floor(k / 30) + 1}.${(k % 30) + 1} ✓\n`,
    ).join("");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(expected);
    const logs = worker.notifications.filter((n) => n.method === "execute.log");
    const chunks = (stream: string) =>
      logs
        .map((n: Notification) => n.params as { stream: string; chunk: string })
        .filter((p) => p.stream === stream)
        .map((p) => p.chunk)
        .join("");
    expect(chunks("stdout")).toBe(expected);
    expect(chunks("stderr")).toBe("done\n");
    // The SDK stamps each notification with the invocation it belongs to.
    expect(new Set(logs.map((n) => n.paperclipInvocationId))).toEqual(new Set(["inv-exec"]));

    const failure = await worker
      .call("environmentExecute", { ...base(), lease, command: " " })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      message: "A sandbox command is required.",
      rpcCode: PLUGIN_RPC_ERROR_CODES.WORKER_ERROR,
    });

    const hostDir = tempDirForTest("createos-rpc-sync-");
    writeFileSync(join(hostDir, "in.txt"), "over rpc\n");
    const synced = await worker.call<{
      operations: Array<{ operationId: string; filesTransferred: number }>;
    }>("environmentSyncIn", {
      ...base(),
      lease,
      operations: [
        {
          operationId: "rpc-in",
          files: [
            {
              sourcePath: join(hostDir, "in.txt"),
              targetPath: "/paperclip-workspace/in.txt",
              kind: "file",
            },
          ],
        },
      ],
    });
    expect(synced.operations).toEqual([{ operationId: "rpc-in", filesTransferred: 1, bytesTransferred: 9 }]);
    const workspace = emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)!.workspaceDir;
    expect(readFileSync(join(workspace, "in.txt"), "utf8")).toBe("over rpc\n");
    await worker.call("environmentSyncOut", {
      ...base(),
      lease,
      operations: [
        {
          operationId: "rpc-out",
          files: [
            {
              sourcePath: "/paperclip-workspace/in.txt",
              targetPath: join(hostDir, "back.txt"),
              kind: "file",
            },
          ],
        },
      ],
    });
    expect(readFileSync(join(hostDir, "back.txt"), "utf8")).toBe("over rpc\n");

    const health = await worker.call<{ status: string }>("health", {});
    expect(health.status).toBe("ok");

    const receipt = await worker.call("environmentReleaseLease", {
      ...base(),
      providerLeaseId: lease.providerLeaseId,
      leaseMetadata: lease.metadata,
    });
    expect(receipt).toEqual({ providerLeaseId: lease.providerLeaseId, state: "destroyed" });

    await worker.call("shutdown", {});
    expect(await worker.exit()).toBe(0);
    expect(worker.stderr.join("")).toBe("");
  });
});

describe("concurrent commands over one worker", () => {
  it("stamps every live chunk with the invocation of the command that printed it", async () => {
    // The host routes an execute.log chunk by its invocation id alone (`plugin-worker-manager.js`,
    // `routeExecuteLogNotification`): one stamped with the other command's id lands in that
    // command's run log. The agent command and the bridge's control commands run side by side.
    const { CREATEOS_API_KEY: _unset, ...env } = process.env;
    const concurrent = WorkerHost.start(fileURLToPath(new URL(pkg.paperclipPlugin.worker, packageRoot)), env);
    try {
      await concurrent.call("initialize", {
        manifest,
        config: {},
        instanceInfo: { instanceId: "test-instance", hostVersion: "2026.916.1" },
        apiVersion: 1,
      });
      const lease = await concurrent.call<{ providerLeaseId: string; metadata: Record<string, unknown> }>(
        "environmentAcquireLease",
        { ...base(), runId: "run-concurrent" },
        { id: "inv-acquire", companyId: "company-1" },
      );
      const tags = ["alpha", "beta", "gamma"];
      const expected = (tag: string) => Array.from({ length: 40 }, (_, k) => `${tag} ${k + 1}\n`).join("");
      const results = await Promise.all(
        tags.map((tag) =>
          concurrent.call<{ exitCode: number; stdout: string }>(
            "environmentExecute",
            {
              ...base(),
              lease,
              command: "/bin/bash",
              args: ["-c", `for i in $(seq 1 40); do echo "${tag} $i"; sleep 0.01; done`],
            },
            { id: `inv-${tag}`, companyId: "company-1" },
          ),
        ),
      );
      for (const [index, tag] of tags.entries()) {
        expect(results[index]).toMatchObject({ exitCode: 0, stdout: expected(tag) });
        const streamed = concurrent.notifications
          .filter((n) => n.method === "execute.log" && n.paperclipInvocationId === `inv-${tag}`)
          .map((n) => (n.params as { chunk: string }).chunk)
          .join("");
        expect(streamed).toBe(expected(tag));
      }
      await concurrent.call("environmentDestroyLease", {
        ...base(),
        providerLeaseId: lease.providerLeaseId,
        leaseMetadata: lease.metadata,
      });
      await concurrent.call("shutdown", {});
      expect(await concurrent.exit()).toBe(0);
    } finally {
      concurrent.kill();
    }
  });
});

describe("the CommonJS build", () => {
  it("loads through require() and its worker entry serves the protocol too", async () => {
    const { createRequire } = await import("node:module");
    const require = createRequire(import.meta.url);
    const main = require("../dist/index.cjs") as typeof import("../src/index.js");
    expect(main.manifest.id).toBe("paperclip.createos-sandbox-provider");
    expect(typeof main.default.definition.onEnvironmentExecute).toBe("function");
    expect(typeof main.createPlugin).toBe("function");
    const cjsWorker = WorkerHost.start(fileURLToPath(new URL("dist/worker.cjs", packageRoot)), process.env);
    try {
      const init = await cjsWorker.call<{ ok: boolean; supportedMethods: string[] }>("initialize", {
        manifest,
        config: {},
        instanceInfo: { instanceId: "test-instance", hostVersion: "2026.916.1" },
        apiVersion: 1,
      });
      expect(init.ok).toBe(true);
      // No instance settings to test: the host shows its "Test configuration" only for this method.
      expect(init.supportedMethods).not.toContain("validateConfig");
      expect(init.supportedMethods).toContain("environmentExecute");
      await cjsWorker.call("shutdown", {});
      expect(await cjsWorker.exit()).toBe(0);
    } finally {
      cjsWorker.kill();
    }
  });
});
