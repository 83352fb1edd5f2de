import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { HostApi } from "@paperclipai/paperclip-host-e2e/host-api";
import type { ChatCompletionsStub } from "@paperclipai/test-support/chat-completions-stub";
import { STUB_MODEL, writeOpencodeOnStub } from "@paperclipai/test-support/opencode-on-stub";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpencodeAnswerStub } from "../src/opencode-answer-stub.js";
import { writeProviderPack } from "../src/provider-pack.js";
import { OUR_BUNDLE, type RemoteServer, startRemoteServer } from "../src/remote-server.js";
import { REPO_ROOT, resolveCodexToolchain, resolveProviderPackToolchain } from "../src/toolchain.js";
import { assignGreeting, endServerRun, expectAnsweredTask } from "../src/whole-server-run.js";

// The server's remote path with an OpenCode agent: OpenCode runs only from a provider pack the
// server stages in the sandbox (`PAPERCLIP_RUNNER_REMOTE_PROVIDER_PACK_PATH`, `src/provider-pack.ts`)
// and verifies there with the pack's own Node; our runner, staged beside it and dialling back over
// TLS, runs the pack's OpenCode (the real 1.18.29, bound to the stub by its executable) behind the
// pack's copy of the server's proxy.

const ANSWER = "hello from OpenCode in a CreateOS sandbox";

let workDir: string;
let pack: string;
let stub: ChatCompletionsStub | undefined;
let remote: RemoteServer | undefined;

beforeAll(async () => {
  const tools = await resolveCodexToolchain();
  const packTools = resolveProviderPackToolchain();
  workDir = await mkdtemp(path.join(os.tmpdir(), "opencode createos server-"));
  const logDir = path.join(workDir, "logs");
  await mkdir(logDir);
  stub = await startOpencodeAnswerStub(ANSWER);
  pack = await writeProviderPack(path.join(workDir, "provider-pack"), {
    serverDir: tools.serverDir,
    node: tools.node24,
    acpxPackages: packTools.acpxPackages,
    opencodePackage: path.dirname(path.dirname(packTools.opencode)),
    // The sandbox's /tmp is its own: OpenCode's TMPDIR stays unset there.
    opencodeExecutable: await writeOpencodeOnStub(workDir, packTools.opencode, stub.baseUrl, null),
    sourceRevision: execFileSync("git", ["rev-parse", "HEAD"], { cwd: REPO_ROOT, encoding: "utf8" }).trim(),
  });
  remote = await startRemoteServer(tools, workDir, logDir, {
    PAPERCLIP_RUNNER_REMOTE_PROVIDER_PACK_PATH: pack,
  });
});

afterAll(async () => {
  await endServerRun(workDir, () => remote?.stop(), stub);
});

describe("the whole Paperclip server running OpenCode in a CreateOS sandbox through our runner", () => {
  it("stages our runner and the provider pack in the sandbox and runs the turn there", async () => {
    const api = new HostApi(remote!.server.baseUrl);
    const { companyId, agentId, projectId } = await remote!.sandboxedAgent("Remote OpenCoder", {
      provider: "opencode",
      model: STUB_MODEL,
    });
    const issueId = await assignGreeting(api, companyId, agentId, projectId);
    const log = await expectAnsweredTask(api, remote!.server, issueId, ANSWER, 200_000);
    expect(log).toContain("transport mode=direct_outbound");
    // Both agent requests reached the stub, the second after the bridge accepted the finish call.
    expect(stub!.remaining()).toBe(0);
    expect(JSON.stringify(stub!.requests.at(-1))).toContain('\\"accepted\\":true');
    // What ran in the sandbox: our bundle, and the pack, staged byte for byte.
    const runtime = ".paperclip-runtime/paperclip-runner";
    const staged = await remote!.inSandboxWorkspace(`${runtime}/bin/paperclip-runnerd`);
    expect((await readFile(staged)).equals(await readFile(OUR_BUNDLE))).toBe(true);
    const manifest = await remote!.inSandboxWorkspace(`${runtime}/provider-pack/provider-pack.json`);
    expect(await readFile(manifest, "utf8")).toBe(
      await readFile(path.join(pack, "provider-pack.json"), "utf8"),
    );
  }, 260_000);
});
