import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { HostApi } from "@paperclipai/paperclip-host-e2e/host-api";
import type { PaperclipServer } from "@paperclipai/paperclip-host-e2e/paperclip-server";
import { waitFor } from "@paperclipai/paperclip-host-e2e/process-group";
import type { ChatCompletionsStub } from "@paperclipai/test-support/chat-completions-stub";
import {
  OPENCODE_HOST_DIRS,
  opencodeProcessesIn,
  realOpencodeBinary,
  STUB_MODEL,
  writeOpencodeOnStub,
} from "@paperclipai/test-support/opencode-on-stub";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOpencodeAnswerStub } from "../src/opencode-answer-stub.js";
import { installServerOpencodeShim } from "../src/opencode-shim.js";
import { type CodexToolchain, resolveCodexToolchain } from "../src/toolchain.js";
import {
  assignGreeting,
  endServerRun,
  expectAnsweredTask,
  startLocalServer,
} from "../src/whole-server-run.js";

// The whole server on the native runtime with an OpenCode agent (`provider: "opencode"`): the
// server's own runner transport launches our runner, which runs the real OpenCode (the server's
// pin, 1.18.29) behind the server's proxy, its model a loopback chat-completions stub.

const ANSWER = "hello from OpenCode";

let tools: CodexToolchain;
let opencode: string;
let workDir: string;
let stub: ChatCompletionsStub | undefined;
let server: PaperclipServer | undefined;
let hostDirsBefore: string[] = [];

beforeAll(async () => {
  tools = await resolveCodexToolchain();
  opencode = realOpencodeBinary("the whole-server OpenCode test");
  await installServerOpencodeShim(tools.serverDir);
  hostDirsBefore = OPENCODE_HOST_DIRS.filter((dir) => existsSync(dir));
  workDir = await mkdtemp(path.join(os.tmpdir(), "opencode whole server-"));
  const logDir = path.join(workDir, "logs");
  await mkdir(logDir);
  stub = await startOpencodeAnswerStub(ANSWER);
  // First on the server's PATH as `opencode`, where the server's shim finds it.
  const binDir = path.join(workDir, "bin");
  await mkdir(binDir);
  await rename(await writeOpencodeOnStub(workDir, opencode, stub.baseUrl), path.join(binDir, "opencode"));
  server = await startLocalServer(tools, workDir, logDir, binDir);
});

afterAll(async () => {
  await endServerRun(workDir, () => server?.stop(), stub);
  expect(OPENCODE_HOST_DIRS.filter((dir) => existsSync(dir))).toEqual(hostDirsBefore);
});

describe("the whole Paperclip server running an OpenCode agent through our runner", () => {
  it("runs an assigned task with the real OpenCode and records the model's answer", async () => {
    const api = new HostApi(server!.baseUrl);
    const company = await api.post<{ id: string }>("/companies", { name: "OpenCode E2E" });
    const agent = await api.post<{ id: string }>(`/companies/${company.id}/agents`, {
      name: "OpenCoder",
      adapterType: "paperclip_runner",
      adapterConfig: { provider: "opencode", model: STUB_MODEL },
    });
    const issueId = await assignGreeting(api, company.id, agent.id);
    await expectAnsweredTask(api, server!, issueId, ANSWER, 120_000);
    // Both agent requests reached the stub, the second after the bridge accepted the finish call.
    expect(stub!.remaining()).toBe(0);
    expect(JSON.stringify(stub!.requests.at(-1))).toContain('\\"accepted\\":true');
    // OpenCode exits with the run, while the server is still up.
    await waitFor(
      "OpenCode exits",
      () => (opencodeProcessesIn(opencode, workDir).length === 0 ? true : undefined),
      { timeoutMs: 15_000 },
    );
  }, 180_000);
});
