import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { HostApi } from "@paperclipai/paperclip-host-e2e/host-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error the stub is a plain ES module shared with the Node 24 driver
import { startModelStub } from "../driver/model-stub.mjs";
import { writeCodexWrapper } from "../src/codex-wrapper.js";
import { OUR_BUNDLE, type RemoteServer, startRemoteServer } from "../src/remote-server.js";
import { resolveCodexToolchain } from "../src/toolchain.js";
import {
  assignGreeting,
  endServerRun,
  expectAnsweredTask,
  finishArguments,
  type ModelStub,
} from "../src/whole-server-run.js";

// The server's remote path end to end: an agent whose environment is a CreateOS sandbox (our
// plugin, installed from its packed tarball, against the emulator), our runner staged there as
// one file (`PAPERCLIP_RUNNER_REMOTE_BINARY_PATH`) with the Codex CLI beside it, dialling the
// server back over TLS (`dial_wss`: CreateOS sandboxes have no ingress).

const ANSWER = "hello from a CreateOS sandbox";

let workDir: string;
let stub: ModelStub | undefined;
let remote: RemoteServer | undefined;

beforeAll(async () => {
  const tools = await resolveCodexToolchain();
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
  remote = await startRemoteServer(tools, workDir, logDir, {
    PAPERCLIP_RUNNER_REMOTE_CODEX_PATH: path.join(codexDir, "codex"),
  });
});

afterAll(async () => {
  await endServerRun(workDir, () => remote?.stop(), stub);
});

describe("the whole Paperclip server running Codex in a CreateOS sandbox through our runner", () => {
  it("stages our runner as one file in the sandbox, which dials back over TLS and runs the turn; its work comes home", async () => {
    const api = new HostApi(remote!.server.baseUrl);
    const { companyId, agentId, projectId, projectDir } = await remote!.sandboxedAgent("Remote coder", {});
    const issueId = await assignGreeting(api, companyId, agentId, projectId);
    const log = await expectAnsweredTask(api, remote!.server, issueId, ANSWER, 150_000);
    expect(log).toContain("transport mode=direct_outbound");
    expect(stub!.requests).toHaveLength(3);
    // What the agent wrote in the sandbox is in the project's workspace on the host.
    expect(await readFile(path.join(projectDir, "result.txt"), "utf8")).toBe(`${ANSWER}\n`);
    // The runner the server staged in the sandbox, and ran there, is our bundle, byte for byte.
    const staged = await remote!.inSandboxWorkspace(
      ".paperclip-runtime/paperclip-runner/bin/paperclip-runnerd",
    );
    expect((await readFile(staged)).equals(await readFile(OUR_BUNDLE))).toBe(true);
  }, 200_000);
});
