import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { type EmulatorProcess, startEmulator } from "@paperclipai/paperclip-host-e2e/emulator-process";
import { HostApi } from "@paperclipai/paperclip-host-e2e/host-api";
import { type PaperclipServer, startPaperclipServer } from "@paperclipai/paperclip-host-e2e/paperclip-server";
import { installPackedPlugin } from "@paperclipai/paperclip-host-e2e/plugin-install-dir";
import { createCreateosEnvironment, installPlugin } from "@paperclipai/paperclip-host-e2e/plugin-steps";
import { waitFor } from "@paperclipai/paperclip-host-e2e/process-group";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error the stub is a plain ES module shared with the Node 24 driver
import { startModelStub } from "../driver/model-stub.mjs";
import { writeCodexWrapper } from "../src/codex-wrapper.js";
import { killAll, processesUnder } from "../src/processes-under.js";
import { type CodexToolchain, REPO_ROOT, resolveCodexToolchain } from "../src/toolchain.js";

// The server's remote path end to end: an agent whose environment is a CreateOS sandbox (our
// plugin, installed from its packed tarball, against the emulator), our runner staged there as
// one file (`PAPERCLIP_RUNNER_REMOTE_BINARY_PATH`) with the Codex CLI beside it, dialling the
// server back over TLS (`dial_wss`: CreateOS sandboxes have no ingress).

interface ModelStub {
  readonly baseUrl: string;
  readonly requests: { input?: unknown }[];
  close(): Promise<void>;
}

interface IssueRun {
  readonly runId: string;
  readonly status: string;
  readonly runtimeMode: string | null;
  readonly adapterType: string;
}

interface HeartbeatRun {
  readonly status: string;
  readonly resultJson: Record<string, unknown> | null;
}

const OUR_BUNDLE = path.join(REPO_ROOT, "packages/paperclip-runner/dist/runnerd-cli.cjs");
const ANSWER = "hello from a CreateOS sandbox";
const FINISH = {
  reportedWorkDisposition: "done",
  summary: ANSWER,
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

/** A self-signed certificate for 127.0.0.1, which is also the CA bundle the runner trusts. */
function selfSignedCertificate(dir: string): { key: string; cert: string } {
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  return { key, cert };
}

/**
 * The server's public TLS front: terminates TLS and relays the bytes to the server's HTTP port,
 * known only once the server has started (it needs the front's URL in its environment first).
 */
async function startTlsFront(
  certificate: { key: string; cert: string },
  upstreamPort: () => number,
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    { key: await readFile(certificate.key), cert: await readFile(certificate.cert) },
    (client) => {
      const upstream = net.connect(upstreamPort(), "127.0.0.1");
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on("close", () => sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `wss://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let tools: CodexToolchain;
let workDir: string;
let stub: ModelStub | undefined;
let front: { url: string; close(): Promise<void> } | undefined;
let emulator: EmulatorProcess | undefined;
let server: PaperclipServer | undefined;
let leftovers: { pid: number; command: string }[] = [];

beforeAll(async () => {
  tools = await resolveCodexToolchain();
  workDir = await mkdtemp(path.join(os.tmpdir(), "codex createos server-"));
  const logDir = path.join(workDir, "logs");
  await mkdir(logDir);
  stub = (await startModelStub([
    { tool: "paperclip_finish", arguments: FINISH },
    { text: ANSWER },
  ])) as ModelStub;
  const codexDir = await writeCodexWrapper(path.join(workDir, "codex"), tools.remoteCodex, stub.baseUrl);
  const certificate = selfSignedCertificate(workDir);
  let serverPort = 0;
  front = await startTlsFront(certificate, () => serverPort);
  const pluginPath = await installPackedPlugin(workDir);
  emulator = await startEmulator(tools.node24, logDir, undefined, "namespace");
  const serverTmp = path.join(workDir, "tmp");
  await mkdir(serverTmp);
  server = await startPaperclipServer(tools, workDir, logDir, {
    env: {
      TMPDIR: serverTmp,
      PAPERCLIP_RUNNER_PUBLIC_URL: front.url,
      PAPERCLIP_RUNNER_CA_BUNDLE_PATH: certificate.cert,
      PAPERCLIP_RUNNER_REMOTE_BINARY_PATH: OUR_BUNDLE,
      PAPERCLIP_RUNNER_REMOTE_CODEX_PATH: path.join(codexDir, "codex"),
    },
  });
  serverPort = Number(new URL(server.baseUrl).port);
  await installPlugin(new HostApi(server.baseUrl), { packageName: pluginPath, isLocalPath: true });
});

afterAll(async () => {
  try {
    await server?.stop();
    await emulator?.stop();
    leftovers = await waitFor(
      "every process of the run exits",
      async () => {
        const live = await processesUnder(workDir);
        return live.length === 0 ? live : undefined;
      },
      { timeoutMs: 15_000 },
    ).catch(() => processesUnder(workDir));
    killAll(leftovers);
    await front?.close();
    await stub?.close();
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  expect(leftovers, "nothing of the run outlives the server").toEqual([]);
});

describe("the whole Paperclip server running Codex in a CreateOS sandbox through our runner", () => {
  it("stages our runner as one file in the sandbox, which dials back over TLS and runs the turn", async () => {
    const api = new HostApi(server!.baseUrl);
    const company = await api.post<{ id: string }>("/companies", { name: "Remote native runtime" });
    const environment = await createCreateosEnvironment(api, company.id, emulator!, "createos-native");
    const projectDir = await mkdtemp(path.join(workDir, "project-"));
    await writeFile(path.join(projectDir, "README.md"), "a project workspace\n");
    const project = await api.post<{ id: string }>(`/companies/${company.id}/projects`, {
      name: "Remote",
      status: "in_progress",
      workspace: { name: "main", cwd: projectDir, isPrimary: true },
    });
    const agent = await api.post<{ id: string }>(`/companies/${company.id}/agents`, {
      name: "Remote coder",
      adapterType: "paperclip_runner",
      adapterConfig: {},
      defaultEnvironmentId: environment.id,
    });
    const issue = await api.post<{ id: string }>(`/companies/${company.id}/issues`, {
      title: "Say hello",
      description: "Answer with a greeting.",
      assigneeAgentId: agent.id,
      status: "todo",
      projectId: project.id,
    });
    const finished = await waitFor(
      "the run finishes",
      async () => {
        const runs = await api.get<IssueRun[]>(`/issues/${issue.id}/runs`);
        return runs.find((candidate) => !["queued", "running"].includes(candidate.status));
      },
      { timeoutMs: 150_000, process: server!.process },
    );
    const log = await api.get<{ content: string }>(`/heartbeat-runs/${finished.runId}/log`);
    const context = log.content.slice(-6_000);
    expect(finished, context).toMatchObject({ status: "succeeded", runtimeMode: "native" });
    expect(log.content).toContain("transport mode=direct_outbound");
    const run = await api.get<HeartbeatRun>(`/heartbeat-runs/${finished.runId}`);
    expect(run.resultJson, context).toMatchObject({
      summary: ANSWER,
      nativeTerminal: { runTerminalState: "succeeded", turnTerminalState: "completed" },
    });
    expect(stub!.requests).toHaveLength(2);
    // The runner the server staged in the sandbox, and ran there, is our bundle, byte for byte.
    const [sandboxDir] = await emulator!.sandboxDirectories();
    const staged = path.join(
      emulator!.workspaceRoot,
      sandboxDir ?? "(no sandbox)",
      "paperclip-workspace/.paperclip-runtime/paperclip-runner/bin/paperclip-runnerd",
    );
    expect((await readFile(staged)).equals(await readFile(OUR_BUNDLE))).toBe(true);
  }, 200_000);
});
