import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/index.js";
import { dataFrames, isAlive, procState, RawApi, streamText } from "./support/raw-api.js";

let emulator: CreateosEmulator;
let api: RawApi;
let sandbox: string;

beforeAll(async () => {
  emulator = await startCreateosEmulator({
    rateLimitPerMinute: null,
    transitionMs: 20,
    heartbeatMs: 40,
    journalBytes: 4096,
  });
  api = new RawApi(emulator);
  sandbox = await api.runningSandbox();
});

afterAll(async () => {
  await emulator?.close();
});

const base = (processId: string) => `/sandboxes/${sandbox}/processes/${processId}`;

describe("emulator: process output", () => {
  it("journals stdout and stderr as data frames numbered from 1, then the exit frame", async () => {
    const pid = await api.framedProcess(sandbox, ["printf one", "printf two >&2", "printf three"], 4);
    const read = await api.connect(sandbox, pid, 0);
    const data = dataFrames(read.frames);
    expect(data.map((frame) => frame.seq)).toEqual([1, 2, 3]);
    expect(data.map((frame) => frame.stream)).toEqual(["stdout", "stderr", "stdout"]);
    expect(streamText(read.frames, "stdout")).toBe("onethree");
    expect(streamText(read.frames, "stderr")).toBe("two");
    expect(read.frames.at(-1)).toEqual({ type: "exit", exit_code: 4 });
    expect(read.ending).toBe("end");
  });

  it("replays only frames after the cursor, and refuses a cursor beyond the newest frame", async () => {
    const pid = await api.framedProcess(sandbox, ["echo 1", "echo 2", "echo 3", "echo 4", "echo 5"]);
    const read = await api.connect(sandbox, pid, 3);
    expect(dataFrames(read.frames).map((frame) => frame.seq)).toEqual([4, 5]);
    expect(streamText(read.frames, "stdout")).toBe("4\n5\n");
    expect((await api.connect(sandbox, pid, 99)).status).toBe(400);
    expect((await api.call("GET", `${base(pid)}/connect?after=-1`)).status).toBe(400);
  });

  it("streams live and sends heartbeats while the process is silent", async () => {
    const pid = await api.process(sandbox, "echo start; sleep 0.5; echo end");
    const read = await api.connect(sandbox, pid, 0);
    expect(streamText(read.frames, "stdout")).toBe("start\nend\n");
    const types = read.frames.map((frame) => frame.type);
    const between = types.slice(types.indexOf("data") + 1, types.lastIndexOf("data"));
    expect(between.length).toBeGreaterThanOrEqual(2);
    expect(new Set(between)).toEqual(new Set(["heartbeat"]));
    expect(types.at(-1)).toBe("exit");
  });

  it("wait answers 408 while running, then exit_code, signal and newest_seq", async () => {
    // `cat` with stdin still open cannot exit, whatever the machine's speed.
    const reply = await api.call("POST", `/sandboxes/${sandbox}/processes`, {
      cmd: "/bin/bash",
      args: ["-c", "echo ready; cat"],
    });
    const pid = String(reply.json?.data?.process_id);
    expect((await api.call("GET", `${base(pid)}/wait?timeout_ms=0`)).status).toBe(408);
    expect((await api.call("GET", `${base(pid)}/wait?timeout_ms=20`)).status).toBe(408);
    expect((await api.call("GET", `${base(pid)}/wait?timeout_ms=abc`)).status).toBe(400);
    await api.call("POST", `${base(pid)}/stdin/close`);
    const done = await api.waitExit(sandbox, pid);
    expect(done).toEqual({ exit_code: 0, signal: null, output: { newest_seq: 1, evicted_before: 0 } });
  });

  it("closes stdin once (then 409) and the process sees end of input", async () => {
    const reply = await api.call("POST", `/sandboxes/${sandbox}/processes`, { cmd: "/bin/cat" });
    const pid = String(reply.json?.data?.process_id);
    expect((await api.call("GET", `${base(pid)}/wait?timeout_ms=50`)).status).toBe(408);
    expect((await api.call("POST", `${base(pid)}/stdin/close`)).status).toBe(200);
    expect((await api.call("POST", `${base(pid)}/stdin/close`)).status).toBe(409);
    expect((await api.waitExit(sandbox, pid)).exit_code).toBe(0);
  });

  it("answers 404 for unknown processes and 400 for an unstartable command", async () => {
    expect((await api.call("GET", `${base("proc_nope")}/wait`)).status).toBe(404);
    expect((await api.call("GET", `/sandboxes/sbx_nope/processes/proc_nope/connect`)).status).toBe(404);
    const bad = await api.call("POST", `/sandboxes/${sandbox}/processes`, { cmd: "/no/such/binary" });
    expect(bad.status).toBe(400);
    const nul = await api.call("POST", `/sandboxes/${sandbox}/processes`, {
      cmd: "/bin/bash",
      args: ["-c", "a\0b"],
    });
    expect(nul.status).toBe(400);
  });

  it("runs in /paperclip-workspace and honours cwd", async () => {
    await api.call("POST", `/sandboxes/${sandbox}/exec`, {
      cmd: "mkdir",
      args: ["-p", "/paperclip-workspace/sub"],
    });
    const pid = await api.process(sandbox, "cd -- '/paperclip-workspace/sub' || exit\nexec env X='1' pwd");
    await api.waitExit(sandbox, pid);
    const workspace = emulator.sandboxes().find((item) => item.id === sandbox)?.workspaceDir;
    expect(streamText((await api.connect(sandbox, pid, 0)).frames, "stdout")).toBe(`${workspace}/sub\n`);
    const withCwd = await api.process(sandbox, "pwd", { cwd: "/paperclip-workspace/sub" });
    await api.waitExit(sandbox, withCwd);
    expect(streamText((await api.connect(sandbox, withCwd, 0)).frames, "stdout")).toBe(`${workspace}/sub\n`);
  });
});

describe("emulator: journal eviction", () => {
  it("evicts the oldest frames past journalBytes: 410 for an evicted cursor, replay from the oldest kept", async () => {
    const pid = await api.process(
      sandbox,
      "for i in $(seq 1 20); do head -c 500 /dev/zero | tr '\\0' a; sleep 0.01; done",
    );
    const done = await api.waitExit(sandbox, pid);
    const snapshot = emulator.processes().find((item) => item.id === pid);
    expect(snapshot?.evictedBefore).toBeGreaterThan(0);
    expect(snapshot?.journalBytes).toBeLessThanOrEqual(4096);
    expect(done.output).toEqual({ newest_seq: snapshot?.newestSeq, evicted_before: snapshot?.evictedBefore });
    expect((await api.connect(sandbox, pid, 0)).status).toBe(410);
    const evicted = await api.call("GET", `${base(pid)}/connect?after=0`);
    expect(evicted.json).toMatchObject({ status: "error", error: { code: "output_offset_expired" } });
    const tail = await api.connect(sandbox, pid, snapshot?.evictedBefore ?? 0);
    expect(dataFrames(tail.frames)[0]?.seq).toBe((snapshot?.evictedBefore ?? 0) + 1);
    expect(tail.frames.at(-1)?.type).toBe("exit");
  });

  it("sends an output_offset_expired error frame when a slow reader falls behind the journal", async () => {
    // 64 MiB cannot sit in the socket buffers, so the server blocks on backpressure while the journal moves on.
    const pid = await api.process(sandbox, "sleep 0.2; head -c 67108864 /dev/zero");
    const response = await fetch(`${emulator.url}/v1${base(pid)}/connect?after=0`, {
      headers: { "x-api-key": emulator.apiKey },
    });
    await api.waitExit(sandbox, pid);
    const text = await response.text();
    const last = JSON.parse(text.trimEnd().split("\n").at(-1) ?? "{}") as unknown;
    expect(last).toEqual({ type: "error", error: "output_offset_expired" });
  });
});

describe("emulator: tree kill", () => {
  it("kills the whole tree (background, TERM-ignoring and own-group children) and answers tree_exited", async () => {
    const pid = await api.process(
      sandbox,
      [
        "sleep 300 & echo bg:$!",
        "bash -c 'trap \"\" TERM; while :; do sleep 0.05; done' & echo stubborn:$!",
        "setsid sleep 300 & echo session:$!",
        "wait",
      ].join("\n"),
    );
    let pids: number[] = [];
    await expect
      .poll(
        async () => {
          const text = streamText((await api.connect(sandbox, pid, 0, { deadlineMs: 100 })).frames, "stdout");
          pids = [...text.matchAll(/:(\d+)/g)].map((match) => Number(match[1]));
          return pids.length === 3;
        },
        { message: "child pids", timeout: 15_000 },
      )
      .toBe(true);
    const leader = emulator.processes().find((item) => item.id === pid);
    expect(leader?.treeAlive).toBe(true);
    for (const child of pids) expect(isAlive(child)).toBe(true);
    const kill = await api.call("DELETE", `${base(pid)}?grace_ms=200`);
    expect(kill.status).toBe(200);
    expect(kill.json).toEqual({ status: "success", data: { tree_exited: true } });
    for (const child of [leader?.osPid ?? 0, ...pids]) expect(isAlive(child)).toBe(false);
    expect(emulator.processes().find((item) => item.id === pid)).toMatchObject({
      running: false,
      killedTree: true,
      treeAlive: false,
      signal: "SIGTERM",
    });
    expect((await api.call("DELETE", `${base(pid)}?grace_ms=200`)).status).toBe(404);
  });

  it("lets concurrent DELETEs share one kill: both answer tree_exited, later ones 404", async () => {
    const pid = await api.process(sandbox, "trap '' TERM; while :; do sleep 0.05; done");
    const path = `${base(pid)}?grace_ms=150`;
    const [first, second] = await Promise.all([api.call("DELETE", path), api.call("DELETE", path)]);
    expect([first.json?.data, second.json?.data]).toEqual([{ tree_exited: true }, { tree_exited: true }]);
    expect((await api.call("DELETE", path)).status).toBe(404);
    expect((await api.call("GET", `${base(pid)}/wait`)).status).toBe(404);
  });

  it("kills orphans left in the group after the leader exited", async () => {
    const pid = await api.process(sandbox, "sleep 300 >/dev/null 2>&1 & echo $!");
    await api.waitExit(sandbox, pid);
    const orphan = Number(streamText((await api.connect(sandbox, pid, 0)).frames, "stdout").trim());
    expect(isAlive(orphan)).toBe(true);
    expect(emulator.processes().find((item) => item.id === pid)?.treeAlive).toBe(true);
    expect((await api.call("DELETE", `${base(pid)}?grace_ms=100`)).json?.data).toEqual({ tree_exited: true });
    expect(isAlive(orphan)).toBe(false);
  });

  it("reports a signal in the exit frame and in wait", async () => {
    const pid = await api.process(sandbox, "exec sleep 300");
    await api.call("DELETE", `${base(pid)}?grace_ms=0`);
    const snapshot = emulator.processes().find((item) => item.id === pid);
    expect(snapshot?.signal).toBe("SIGTERM");
    expect(snapshot?.exitCode).toBeNull();
  });
});

describe("emulator: paused sandboxes", () => {
  it("freezes process trees while paused and thaws them on resume", async () => {
    const own = await api.runningSandbox();
    const pid = await api.process(own, "while :; do sleep 0.02; done");
    const osPid = emulator.processes().find((item) => item.id === pid)?.osPid ?? 0;
    await api.call("POST", `/sandboxes/${own}/pause`);
    await api.untilStatus(own, "paused");
    await expect
      .poll(() => procState(osPid) === "T", { message: "stopped leader", timeout: 15_000 })
      .toBe(true);
    await api.call("POST", `/sandboxes/${own}/resume`);
    await api.untilStatus(own, "running");
    await expect
      .poll(() => procState(osPid) !== "T", { message: "running leader", timeout: 15_000 })
      .toBe(true);
    expect((await api.call("DELETE", `/sandboxes/${own}`)).status).toBe(200);
    expect(isAlive(osPid)).toBe(false);
  });
});

describe("emulator: journalBackpressure", () => {
  it("blocks a fast producer instead of evicting, so a slow reader still gets every byte", async () => {
    const paced = await startCreateosEmulator({
      rateLimitPerMinute: null,
      transitionMs: 0,
      journalBytes: 65536,
      journalBackpressure: true,
    });
    try {
      const pacedApi = new RawApi(paced);
      const own = await pacedApi.runningSandbox();
      const pid = await pacedApi.process(own, "head -c 8388608 /dev/zero | tr '\\0' x");
      // Nobody reads yet: the process must block with at most ~one journal of output taken.
      await expect
        .poll(() => (paced.processes()[0]?.journalBytes ?? 0) > 65536, {
          message: "a full journal",
          timeout: 15_000,
        })
        .toBe(true);
      expect(
        (await pacedApi.call("GET", `/sandboxes/${own}/processes/${pid}/wait?timeout_ms=200`)).status,
      ).toBe(408);
      expect(paced.processes()[0]?.evictedBefore).toBe(0);
      const read = await pacedApi.connect(own, pid, 0, { deadlineMs: 30_000 });
      const data = dataFrames(read.frames);
      expect(data.map((frame) => frame.seq)).toEqual(data.map((_, index) => index + 1));
      const total = data.reduce((sum, frame) => sum + Buffer.from(frame.data_base64, "base64").length, 0);
      expect(total).toBe(8388608);
      expect(read.frames.at(-1)).toEqual({ type: "exit", exit_code: 0 });
    } finally {
      await paced.close();
    }
  });
});
