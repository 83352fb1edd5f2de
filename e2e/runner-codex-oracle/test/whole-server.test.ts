import { mkdir, mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { HostApi } from "@paperclipai/paperclip-host-e2e/host-api";
import type { PaperclipServer } from "@paperclipai/paperclip-host-e2e/paperclip-server";
import { waitFor } from "@paperclipai/paperclip-host-e2e/process-group";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error the stub is a plain ES module shared with the Node 24 driver
import { startModelStub } from "../driver/model-stub.mjs";
import { writeCodexWrapper } from "../src/codex-wrapper.js";
import { processesUnder } from "../src/processes-under.js";
import { type CodexToolchain, OUR_RUNNER_BIN, resolveCodexToolchain } from "../src/toolchain.js";
import {
  assignGreeting,
  endServerRun,
  expectAnsweredTask,
  finishArguments,
  type ModelStub,
  startLocalServer,
} from "../src/whole-server-run.js";

const ANSWER = "hello from the stub";

let tools: CodexToolchain;
let workDir: string;
let stub: ModelStub | undefined;
let server: PaperclipServer | undefined;

beforeAll(async () => {
  tools = await resolveCodexToolchain();
  workDir = await mkdtemp(path.join(os.tmpdir(), "codex whole server-"));
  const logDir = path.join(workDir, "logs");
  await mkdir(logDir);
  stub = (await startModelStub([
    { tool: "paperclip_finish", arguments: finishArguments(ANSWER) },
    { text: ANSWER },
  ])) as ModelStub;
  const binDir = await writeCodexWrapper(path.join(workDir, "bin"), tools.codex, stub.baseUrl);
  server = await startLocalServer(tools, workDir, logDir, binDir);
});

afterAll(async () => {
  await endServerRun(workDir, () => server?.stop(), stub);
});

describe("the whole Paperclip server on the native runtime with our runner", () => {
  it("runs an assigned task through the runner and Codex and records the model's answer", async () => {
    const api = new HostApi(server!.baseUrl);
    const company = await api.post<{ id: string }>("/companies", { name: "Native runtime E2E" });
    const agent = await api.post<{ id: string; adapterType: string }>(`/companies/${company.id}/agents`, {
      name: "Coder",
      adapterType: "paperclip_runner",
      adapterConfig: {},
    });
    expect(agent.adapterType).toBe("paperclip_runner");
    const issueId = await assignGreeting(api, company.id, agent.id);
    await expectAnsweredTask(api, server!, issueId, ANSWER, 90_000);
    // Codex asked the stub twice: the finish call, then (with the tool's output) the answer.
    expect(stub!.requests).toHaveLength(2);
    expect(JSON.stringify(stub!.requests[1]?.input)).toContain("function_call_output");
    // The run's runner and its Codex exit with the run, while the server is still up.
    await waitFor(
      "the runner and Codex exit",
      async () => {
        const live = await processesUnder(workDir);
        const ours = live.filter(
          (p) => p.command.includes(OUR_RUNNER_BIN) || p.command.includes(tools.codex),
        );
        return ours.length === 0 ? true : undefined;
      },
      { timeoutMs: 30_000 },
    );
  }, 120_000);
});
