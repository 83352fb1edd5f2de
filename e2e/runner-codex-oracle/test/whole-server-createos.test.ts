import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type EmulatorProcess, startEmulator } from "@paperclipai/paperclip-host-e2e/emulator-process";
import { HostApi } from "@paperclipai/paperclip-host-e2e/host-api";
import { type PaperclipServer, startPaperclipServer } from "@paperclipai/paperclip-host-e2e/paperclip-server";
import { installPackedPlugin } from "@paperclipai/paperclip-host-e2e/plugin-install-dir";
import { createCreateosEnvironment, installPlugin } from "@paperclipai/paperclip-host-e2e/plugin-steps";
import { writeSelfSignedCertificate } from "@paperclipai/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error the stub is a plain ES module shared with the Node 24 driver
import { startModelStub } from "../driver/model-stub.mjs";
import { writeCodexWrapper } from "../src/codex-wrapper.js";
import { startTlsFront, type TlsFront } from "../src/tls-front.js";
import { type CodexToolchain, REPO_ROOT, resolveCodexToolchain } from "../src/toolchain.js";
import {
  assignGreeting,
  expectAnsweredTask,
  finishArguments,
  leftoversUnder,
  type ModelStub,
} from "../src/whole-server-run.js";

// The server's remote path end to end: an agent whose environment is a CreateOS sandbox (our
// plugin, installed from its packed tarball, against the emulator), our runner staged there as
// one file (`PAPERCLIP_RUNNER_REMOTE_BINARY_PATH`) with the Codex CLI beside it, dialling the
// server back over TLS (`dial_wss`: CreateOS sandboxes have no ingress).

const OUR_BUNDLE = path.join(REPO_ROOT, "packages/paperclip-runner/dist/runnerd-cli.cjs");
const ANSWER = "hello from a CreateOS sandbox";

let tools: CodexToolchain;
let workDir: string;
let stub: ModelStub | undefined;
let front: TlsFront | undefined;
let emulator: EmulatorProcess | undefined;
let server: PaperclipServer | undefined;
let leftovers: { pid: number; command: string }[] = [];

beforeAll(async () => {
  tools = await resolveCodexToolchain();
  workDir = await mkdtemp(path.join(os.tmpdir(), "codex createos server-"));
  const logDir = path.join(workDir, "logs");
  await mkdir(logDir);
  stub = (await startModelStub([
    // The agent's work: a file written in the sandbox's workspace, which the restore brings home.
    { tool: "exec_command", arguments: { cmd: `printf '%s\\n' ${JSON.stringify(ANSWER)} > result.txt` } },
    { tool: "paperclip_finish", arguments: finishArguments(ANSWER) },
    { text: ANSWER },
  ])) as ModelStub;
  const codexDir = await writeCodexWrapper(path.join(workDir, "codex"), tools.remoteCodex, stub.baseUrl);
  const certificate = writeSelfSignedCertificate(workDir);
  let serverPort = 0;
  front = await startTlsFront(certificate, () => serverPort);
  const pluginPath = await installPackedPlugin(workDir);
  emulator = await startEmulator(tools.node24, logDir, { isolation: "namespace", rateLimit: "off" });
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
    leftovers = await leftoversUnder(workDir);
    await front?.close();
    await stub?.close();
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  expect(leftovers, "nothing of the run outlives the server").toEqual([]);
});

describe("the whole Paperclip server running Codex in a CreateOS sandbox through our runner", () => {
  it("stages our runner as one file in the sandbox, which dials back over TLS and runs the turn; its work comes home", async () => {
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
    const issueId = await assignGreeting(api, company.id, agent.id, project.id);
    const log = await expectAnsweredTask(api, server!, issueId, ANSWER, 150_000);
    expect(log).toContain("transport mode=direct_outbound");
    expect(stub!.requests).toHaveLength(3);
    // What the agent wrote in the sandbox is in the project's workspace on the host.
    expect(await readFile(path.join(projectDir, "result.txt"), "utf8")).toBe(`${ANSWER}\n`);
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
