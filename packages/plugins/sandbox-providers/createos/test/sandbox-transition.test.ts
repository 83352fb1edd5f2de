import { caught } from "@paperclipai/errors/testing";
import { afterEach, describe, expect, it } from "vitest";
import { CreateosClient } from "../src/client/createos-client.js";
import { deleteSandbox, transitionSandbox, waitForStatus } from "../src/lease/sandbox-api.js";
import { sendJson, startScriptedServer } from "./support/scripted-server.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

/**
 * A sandbox whose state reads follow a script; POSTs to pause/resume answer `postStatus`, a
 * DELETE answers `deleteData`.
 */
async function scriptedSandbox(states: string[], postStatus = 200, deleteData: object = { id: "sbx_1" }) {
  let reads = 0;
  const s = await startScriptedServer((req, res) => {
    if (req.method === "POST") return sendJson(res, postStatus, { status: "success", data: {} });
    if (req.method === "DELETE") return sendJson(res, 200, { status: "success", data: deleteData });
    const status = states[Math.min(reads++, states.length - 1)];
    sendJson(res, 200, { status: "success", data: { id: "sbx_1", status } });
  });
  closers.push(s.close);
  const client = new CreateosClient({
    apiUrl: s.url,
    apiKey: "k",
    rateLimit: { burst: 1_000, refillPerMinute: 600_000 },
  });
  return { s, client };
}

const signal = new AbortController().signal;

describe("pause and resume reconcile with the state", () => {
  it("keeps polling when the read right after a successful POST still shows the old state", async () => {
    const { s, client } = await scriptedSandbox(["paused", "paused", "paused", "resuming", "running"]);
    await transitionSandbox(client, "sbx_1", "resume", Date.now() + 10_000, signal);
    expect(s.seen.filter((r) => r.method === "POST").map((r) => r.url)).toEqual([
      "/v1/sandboxes/sbx_1/resume",
    ]);
  });

  it("treats a 409 as a transition already under way", async () => {
    const { client } = await scriptedSandbox(["running", "pausing", "paused"], 409);
    await transitionSandbox(client, "sbx_1", "pause", Date.now() + 10_000, signal);
  });

  it("does nothing when the sandbox is already in the target state", async () => {
    const { s, client } = await scriptedSandbox(["paused"]);
    await transitionSandbox(client, "sbx_1", "pause", Date.now() + 10_000, signal);
    expect(s.seen.filter((r) => r.method === "POST")).toHaveLength(0);
  });

  it("fails on a terminal state, and at the deadline", async () => {
    const broken = await scriptedSandbox(["resuming", "failed"]);
    const error = await caught(waitForStatus(broken.client, "sbx_1", "running", Date.now() + 10_000, signal));
    expect(error.message).toBe("CreateOS sandbox is failed; expected running.");
    const slow = await scriptedSandbox(["creating"]);
    const late = await caught(waitForStatus(slow.client, "sbx_1", "running", Date.now() + 100, signal));
    expect(late.details).toEqual({ status: "creating", expected: "running", timedOut: true });
  });
});

describe("delete", () => {
  it("ends on a successful DELETE, as upstream: no confirming read", async () => {
    const { s, client } = await scriptedSandbox(["running"]);
    await deleteSandbox(client, "sbx_1", Date.now() + 10_000);
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["DELETE /v1/sandboxes/sbx_1"]);
  });

  it("reads the state until it is ended when the DELETE reply names a live one", async () => {
    const { s, client } = await scriptedSandbox(["running", "destroyed"], 200, {
      id: "sbx_1",
      status: "running",
    });
    await deleteSandbox(client, "sbx_1", Date.now() + 10_000);
    expect(s.seen.map((r) => r.method)).toEqual(["DELETE", "GET", "GET"]);
  });

  it("ends at the deadline with ERR_CREATEOS_SANDBOX_STATE while the state stays live", async () => {
    const stuck = await scriptedSandbox(["running"], 200, { id: "sbx_1", status: "running" });
    const late = await caught(deleteSandbox(stuck.client, "sbx_1", Date.now() + 1_000));
    expect(late.code).toBe("ERR_CREATEOS_SANDBOX_STATE");
    expect(late.details).toEqual({ status: "running", expected: "destroyed", timedOut: true });
    expect(stuck.s.seen.filter((r) => r.method === "GET").length).toBeGreaterThan(1);
  });

  it("ends at the deadline with ERR_CREATEOS_REQUEST_TIMEOUT when the DELETE never answers", async () => {
    const silent = await startScriptedServer(() => {});
    closers.push(silent.close);
    const client = new CreateosClient({ apiUrl: silent.url, apiKey: "k" });
    const late = await caught(deleteSandbox(client, "sbx_1", Date.now() + 200));
    expect(late.code).toBe("ERR_CREATEOS_REQUEST_TIMEOUT");
    expect(late.details).toEqual({ operation: "sandbox lifecycle" });
  });
});
