import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/index.js";
import { RawApi } from "./support/raw-api.js";

const ID = /^[A-Za-z0-9_-]{1,200}$/;

let emulator: CreateosEmulator;
let api: RawApi;

beforeAll(async () => {
  emulator = await startCreateosEmulator({ rateLimitPerMinute: null, transitionMs: 30 });
  api = new RawApi(emulator);
});

afterAll(async () => {
  await emulator?.close();
});

describe("emulator: service basics", () => {
  it("listens on a loopback origin and requires the X-Api-Key", async () => {
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const missing = await fetch(`${emulator.url}/v1/sandboxes/x`);
    expect(missing.status).toBe(401);
    const wrong = await new RawApi(emulator, "not-the-key").call("GET", "/sandboxes/x");
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ status: "error" });
  });

  it("answers unknown routes with 404", async () => {
    expect((await api.call("GET", "/nothing")).status).toBe(404);
    expect((await api.call("PATCH", "/sandboxes/abc")).status).toBe(404);
  });

  it("validates the create body", async () => {
    expect((await api.call("POST", "/sandboxes", {})).status).toBe(400);
    expect((await api.call("POST", "/sandboxes", { shape: "s-1vcpu-1gb", region: 5 })).status).toBe(400);
    expect(
      (await api.call("POST", "/sandboxes", { shape: "s-1vcpu-1gb", env: { "bad-key": "x" } })).status,
    ).toBe(400);
    const bad = await fetch(`${emulator.url}/v1/sandboxes`, {
      method: "POST",
      headers: { "x-api-key": emulator.apiKey },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
  });
});

describe("emulator: sandbox states", () => {
  // Slow transitions, so every request meant to land inside one does, however loaded the machine.
  let slow: CreateosEmulator;
  let slowApi: RawApi;
  beforeAll(async () => {
    slow = await startCreateosEmulator({ rateLimitPerMinute: null, transitionMs: 1500 });
    slowApi = new RawApi(slow);
  });
  afterAll(async () => {
    await slow?.close();
  });

  it("creates asynchronously: creating, then running, with a valid id and the success envelope", async () => {
    const created = await slowApi.call("POST", "/sandboxes", {
      shape: "s-2vcpu-2gb",
      rootfs: "ubuntu",
      region: "eu",
      ingress_enabled: false,
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ status: "success", data: { status: "creating" } });
    const id = String(created.json?.data?.id);
    expect(id).toMatch(ID);
    const busy = await slowApi.call("POST", `/sandboxes/${id}/processes`, { cmd: "/bin/true" });
    expect(busy.status).toBe(409);
    await slowApi.untilStatus(id, "running");
    const read = await slowApi.call("GET", `/sandboxes/${id}`);
    expect(read.json?.data).toMatchObject({
      id,
      status: "running",
      shape: "s-2vcpu-2gb",
      rootfs: "ubuntu",
      region: "eu",
    });
  });

  it("pauses and resumes through transitional states, with 409 during a transition", async () => {
    const id = await slowApi.runningSandbox();
    const pause = await slowApi.call("POST", `/sandboxes/${id}/pause`);
    expect(pause.status).toBe(200);
    expect(pause.json?.data?.status).toBe("pausing");
    expect((await slowApi.call("POST", `/sandboxes/${id}/resume`)).status).toBe(409);
    expect((await slowApi.call("POST", `/sandboxes/${id}/exec`, { cmd: "true" })).status).toBe(409);
    await slowApi.untilStatus(id, "paused");
    expect((await slowApi.call("POST", `/sandboxes/${id}/pause`)).status).toBe(200);
    const resume = await slowApi.call("POST", `/sandboxes/${id}/resume`);
    expect(resume.json?.data?.status).toBe("resuming");
    expect((await slowApi.call("POST", `/sandboxes/${id}/pause`)).status).toBe(409);
    await slowApi.untilStatus(id, "running");
    expect((await slowApi.call("POST", `/sandboxes/${id}/resume`)).status).toBe(200);
  });

  it("deletes: the directories go, GET reads destroyed, a second DELETE is 404", async () => {
    const id = await api.runningSandbox();
    const snapshot = emulator.sandboxes().find((sandbox) => sandbox.id === id);
    expect(snapshot && existsSync(snapshot.workspaceDir)).toBe(true);
    expect((await api.call("DELETE", `/sandboxes/${id}`)).status).toBe(200);
    expect(existsSync(snapshot?.workspaceDir ?? "")).toBe(false);
    expect((await api.call("GET", `/sandboxes/${id}`)).json?.data?.status).toBe("destroyed");
    expect((await api.call("DELETE", `/sandboxes/${id}`)).status).toBe(404);
    expect((await api.call("POST", `/sandboxes/${id}/pause`)).status).toBe(404);
    expect((await api.call("DELETE", "/sandboxes/never_existed")).status).toBe(404);
  });

  it("lets a test force a state such as error", async () => {
    const id = await api.runningSandbox();
    emulator.setSandboxStatus(id, "error");
    expect((await api.call("GET", `/sandboxes/${id}`)).json?.data?.status).toBe("error");
    expect((await api.call("POST", `/sandboxes/${id}/pause`)).status).toBe(409);
  });
});

describe("emulator: files and exec", () => {
  it("round-trips binary files and maps /paperclip-workspace to the sandbox directory", async () => {
    const id = await api.runningSandbox();
    const bytes = Uint8Array.from({ length: 512 }, (_, index) => index % 256);
    const put = await api.call(
      "PUT",
      `/sandboxes/${id}/files?path=/paperclip-workspace/deep/dir/blob.bin`,
      bytes,
    );
    expect(put.status).toBe(200);
    const got = await api.call("GET", `/sandboxes/${id}/files?path=/paperclip-workspace/deep/dir/blob.bin`);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/octet-stream");
    expect(Buffer.compare(got.bytes, Buffer.from(bytes))).toBe(0);
    const workspace = emulator.sandboxes().find((sandbox) => sandbox.id === id)?.workspaceDir ?? "";
    expect(readFileSync(`${workspace}/deep/dir/blob.bin`).equals(Buffer.from(bytes))).toBe(true);
    const exec = await api.call("POST", `/sandboxes/${id}/exec`, {
      cmd: "/usr/bin/sha256sum",
      args: ["/paperclip-workspace/deep/dir/blob.bin"],
    });
    expect(exec.json?.data?.result).toMatchObject({ exit_code: 0, stderr: "" });
  });

  it("stages files under /tmp that processes can read", async () => {
    const id = await api.runningSandbox();
    await api.call(
      "PUT",
      `/sandboxes/${id}/files?path=/tmp/stdin-1`,
      new TextEncoder().encode("from stdin\n"),
    );
    const exec = await api.call("POST", `/sandboxes/${id}/exec`, {
      cmd: "/bin/bash",
      args: ["-c", "cat < /tmp/stdin-1"],
    });
    expect(exec.json?.data?.result).toEqual({
      exit_code: 0,
      signal: null,
      stdout: "from stdin\n",
      stderr: "",
    });
  });

  it("refuses paths outside the sandbox, traversal and symlink escapes, and 404s a missing file", async () => {
    const id = await api.runningSandbox();
    const path = (p: string) => `/sandboxes/${id}/files?path=${encodeURIComponent(p)}`;
    expect((await api.call("GET", path("/etc/passwd"))).status).toBe(403);
    expect((await api.call("GET", path("/paperclip-workspace/../etc/passwd"))).status).toBe(403);
    expect((await api.call("GET", path("relative.txt"))).status).toBe(400);
    expect((await api.call("GET", `/sandboxes/${id}/files`)).status).toBe(400);
    expect((await api.call("GET", path("/paperclip-workspace/missing"))).status).toBe(404);
    await api.call("PUT", path("/paperclip-workspace/plain"), new Uint8Array([1]));
    expect(
      (await api.call("PUT", path("/paperclip-workspace/plain/below"), new Uint8Array([1]))).status,
    ).toBe(409);
    expect((await api.call("PUT", path("/paperclip-workspace"), new Uint8Array([1]))).status).toBe(409);
    await api.call("POST", `/sandboxes/${id}/exec`, {
      cmd: "ln",
      args: ["-s", "/etc", "/paperclip-workspace/etc"],
    });
    expect((await api.call("GET", path("/paperclip-workspace/etc/hostname"))).status).toBe(403);
    expect((await api.call("PUT", path("/paperclip-workspace/etc/evil"), new Uint8Array([1]))).status).toBe(
      403,
    );
    expect(existsSync("/etc/evil")).toBe(false);
  });

  it("runs exec buffered: exit code, both streams, workspace as the default cwd", async () => {
    const id = await api.runningSandbox();
    const exec = await api.call("POST", `/sandboxes/${id}/exec`, {
      cmd: "/bin/bash",
      args: ["-c", "echo out; echo err >&2; pwd; exit 7"],
    });
    const workspace = emulator.sandboxes().find((sandbox) => sandbox.id === id)?.workspaceDir;
    expect(exec.json?.data?.result).toEqual({
      exit_code: 7,
      signal: null,
      stdout: `out\n${workspace}\n`,
      stderr: "err\n",
    });
    const missing = await api.call("POST", `/sandboxes/${id}/exec`, { cmd: "/no/such/binary" });
    expect(missing.json?.data?.result).toMatchObject({ exit_code: 127 });
    expect((await api.call("POST", `/sandboxes/${id}/exec`, { args: [] })).status).toBe(400);
  });

  it("gives processes a clean environment with only the env keys declared at creation", async () => {
    process.env.EMULATOR_TEST_SECRET = "do-not-leak";
    const id = await api.runningSandbox({ env: { GREETING: "hello" } });
    const undeclared = await api.call("POST", `/sandboxes/${id}/processes`, {
      cmd: "/bin/true",
      env: { OTHER: "x" },
    });
    expect(undeclared.status).toBe(400);
    const exec = await api.call("POST", `/sandboxes/${id}/exec`, {
      cmd: "/bin/bash",
      args: ["-c", 'echo "$GREETING $(printenv EMULATOR_TEST_SECRET || echo clean)"'],
    });
    expect(exec.json?.data?.result).toMatchObject({ stdout: "hello clean\n" });
    delete process.env.EMULATOR_TEST_SECRET;
  });
});
