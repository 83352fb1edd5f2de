import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import path from "node:path";
import { type EmulatorProcess, startEmulator } from "@paperclipai/paperclip-host-e2e/emulator-process";
import { HostApi } from "@paperclipai/paperclip-host-e2e/host-api";
import { type PaperclipServer, startPaperclipServer } from "@paperclipai/paperclip-host-e2e/paperclip-server";
import { installPackedPlugin } from "@paperclipai/paperclip-host-e2e/plugin-install-dir";
import { createCreateosEnvironment, installPlugin } from "@paperclipai/paperclip-host-e2e/plugin-steps";
import { writeSelfSignedCertificate } from "@paperclipai/test-support";
import { startTlsFront, type TlsFront } from "./tls-front.js";
import { type CodexToolchain, REPO_ROOT } from "./toolchain.js";

/** Our runner as one file, the bundle the server stages in a sandbox. */
export const OUR_BUNDLE = path.join(REPO_ROOT, "packages/paperclip-runner/dist/runnerd-cli.cjs");

/**
 * The server's scheduler tick (30 s by default) reconciles every native run whose result is
 * recorded, one whose heartbeat is still closing its remote runner too (10-30 s of paced CreateOS
 * calls): the reconciler then restores the workspace and settles the lease under the heartbeat,
 * whose own restore fails. An hour keeps that race of the server's out of a test's one run.
 */
const SCHEDULER_TICK_MS = 3_600_000;

export interface SandboxedAgent {
  readonly companyId: string;
  readonly agentId: string;
  readonly projectId: string;
  /** The project's workspace on the host. */
  readonly projectDir: string;
}

/** The server of the remote tests, the emulator its sandboxes run in and the TLS front its runners dial. */
export interface RemoteServer {
  readonly server: PaperclipServer;
  readonly emulator: EmulatorProcess;
  /**
   * A company whose agent `name` (a `paperclip_runner` of `adapterConfig`) runs in a CreateOS
   * sandbox on the emulator, on a project whose workspace is a fresh directory under the work
   * directory (holding a README).
   */
  sandboxedAgent(name: string, adapterConfig: Record<string, unknown>): Promise<SandboxedAgent>;
  /** Where `relative` (a workspace path) is in the run's one sandbox, on the host. */
  inSandboxWorkspace(relative: string): Promise<string>;
  /** Stops the server, the emulator and the front (in that order), whatever fails. */
  stop(): Promise<void>;
}

/**
 * The server's remote path as the remote tests drive it: our plugin installed from its packed
 * tarball, the emulator in `isolation: "namespace"` (plain processes that see
 * `/paperclip-workspace` exactly and outlive their command, as in a VM) with its rate limit off,
 * our bundle as the runner file the server stages (`PAPERCLIP_RUNNER_REMOTE_BINARY_PATH`), and a
 * TLS front of the server's port (`PAPERCLIP_RUNNER_PUBLIC_URL`: CreateOS sandboxes have no
 * ingress, the runner dials back) whose self-signed certificate is the CA bundle the server
 * stages beside the runner. `env` adds to the server's environment.
 */
export async function startRemoteServer(
  tools: CodexToolchain,
  workDir: string,
  logDir: string,
  env: Readonly<Record<string, string>>,
): Promise<RemoteServer> {
  const certificate = writeSelfSignedCertificate(workDir);
  let serverPort = 0;
  const front: TlsFront = await startTlsFront(certificate, () => serverPort);
  let emulator: EmulatorProcess | undefined;
  let server: PaperclipServer | undefined;
  const stop = async (): Promise<void> => {
    try {
      await server?.stop();
    } finally {
      try {
        await emulator?.stop();
      } finally {
        await front.close();
      }
    }
  };
  try {
    const pluginPath = await installPackedPlugin(workDir);
    emulator = await startEmulator(tools.node24, logDir, { isolation: "namespace", rateLimit: "off" });
    // The server makes each run a scratch directory under os.tmpdir() and leaves it.
    const serverTmp = path.join(workDir, "tmp");
    await mkdir(serverTmp);
    server = await startPaperclipServer(tools, workDir, logDir, {
      env: {
        TMPDIR: serverTmp,
        PAPERCLIP_RUNNER_PUBLIC_URL: front.url,
        PAPERCLIP_RUNNER_CA_BUNDLE_PATH: certificate.cert,
        PAPERCLIP_RUNNER_REMOTE_BINARY_PATH: OUR_BUNDLE,
        HEARTBEAT_SCHEDULER_INTERVAL_MS: String(SCHEDULER_TICK_MS),
        ...env,
      },
    });
    serverPort = Number(new URL(server.baseUrl).port);
    await installPlugin(new HostApi(server.baseUrl), { packageName: pluginPath, isLocalPath: true });
  } catch (error) {
    await stop();
    throw error;
  }
  const started = { server, emulator };
  return {
    ...started,
    sandboxedAgent: async (name, adapterConfig) => {
      const api = new HostApi(started.server.baseUrl);
      const company = await api.post<{ id: string }>("/companies", { name: `Company of ${name}` });
      const environment = await createCreateosEnvironment(api, company.id, started.emulator, "createos");
      const projectDir = await mkdtemp(path.join(workDir, "project-"));
      await writeFile(path.join(projectDir, "README.md"), "a project workspace\n");
      const project = await api.post<{ id: string }>(`/companies/${company.id}/projects`, {
        name: "Remote",
        status: "in_progress",
        workspace: { name: "main", cwd: projectDir, isPrimary: true },
      });
      const agent = await api.post<{ id: string }>(`/companies/${company.id}/agents`, {
        name,
        adapterType: "paperclip_runner",
        adapterConfig,
        defaultEnvironmentId: environment.id,
      });
      return { companyId: company.id, agentId: agent.id, projectId: project.id, projectDir };
    },
    inSandboxWorkspace: async (relative) => {
      const [sandboxDir] = await started.emulator.sandboxDirectories();
      return path.join(
        started.emulator.workspaceRoot,
        sandboxDir ?? "(no sandbox)",
        "paperclip-workspace",
        relative,
      );
    },
    stop,
  };
}
