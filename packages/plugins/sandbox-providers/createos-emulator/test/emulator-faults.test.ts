import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type CreateosEmulator, startCreateosEmulator } from "../src/index.js";
import { dataFrames, RawApi, streamText } from "./support/raw-api.js";

let emulator: CreateosEmulator;
let api: RawApi;
let sandbox: string;
/** A finished process with five one-line stdout frames, `1\n` … `5\n`. */
let five: string;

const FIVE_LINES = "1\n2\n3\n4\n5\n";

beforeAll(async () => {
  emulator = await startCreateosEmulator({ rateLimitPerMinute: null, transitionMs: 10, heartbeatMs: 40 });
  api = new RawApi(emulator);
  sandbox = await api.runningSandbox();
  five = await api.framedProcess(sandbox, ["echo 1", "echo 2", "echo 3", "echo 4", "echo 5"]);
  expect(emulator.processes().find((item) => item.id === five)?.newestSeq).toBe(5);
});

afterEach(() => {
  emulator.faults.clear();
});

afterAll(async () => {
  await emulator?.close();
});

const connectPath = (pid: string, after = 0) =>
  `/sandboxes/${sandbox}/processes/${pid}/connect?after=${after}`;

describe("emulator faults: HTTP status bursts", () => {
  it("answers a burst of 503 with Retry-After on one route, then serves normally", async () => {
    emulator.faults.set({
      faults: [
        { kind: "http-status", route: "process.connect", status: 503, times: 2, retryAfterSeconds: 3 },
      ],
    });
    const first = await api.call("GET", connectPath(five));
    const second = await api.call("GET", connectPath(five));
    expect([first.status, second.status]).toEqual([503, 503]);
    expect(first.headers.get("retry-after")).toBe("3");
    expect((await api.call("GET", `/sandboxes/${sandbox}`)).status).toBe(200);
    const third = await api.connect(sandbox, five, 0);
    expect(streamText(third.frames, "stdout")).toBe(FIVE_LINES);
    expect(emulator.faults.fired().filter((firing) => firing.kind === "http-status")).toHaveLength(2);
    const records = emulator.requests().filter((record) => record.route === "process.connect");
    expect(records.slice(-3).map((record) => [record.status, record.fault])).toEqual([
      [503, "http-status"],
      [503, "http-status"],
      [200, undefined],
    ]);
  });

  it("answers 429 on every route with `*`, honours skip, and keeps firing with times: always", async () => {
    emulator.faults.set({
      faults: [{ kind: "http-status", route: "*", status: 429, skip: 1, times: "always" }],
    });
    const statuses = [];
    for (let index = 0; index < 4; index += 1)
      statuses.push((await api.call("GET", `/sandboxes/${sandbox}`)).status);
    expect(statuses).toEqual([200, 429, 429, 429]);
  });

  it("fails the kill without killing: the tree stays alive until a later DELETE", async () => {
    const pid = await api.process(sandbox, "exec sleep 300");
    emulator.faults.set({ faults: [{ kind: "http-status", route: "process.kill", status: 500, times: 2 }] });
    const path = `/sandboxes/${sandbox}/processes/${pid}?grace_ms=100`;
    expect((await api.call("DELETE", path)).status).toBe(500);
    expect((await api.call("DELETE", path)).status).toBe(500);
    expect(emulator.processes().find((item) => item.id === pid)).toMatchObject({
      running: true,
      treeAlive: true,
    });
    expect((await api.call("DELETE", path)).json?.data).toEqual({ tree_exited: true });
    expect(emulator.processes().find((item) => item.id === pid)?.treeAlive).toBe(false);
  });
});

describe("emulator faults: the connect stream", () => {
  it("drop-stream (reset) breaks the connection after N data frames; a reconnect from the cursor resumes", async () => {
    emulator.faults.set({ faults: [{ kind: "drop-stream", afterFrames: 2 }] });
    const dropped = await api.connect(sandbox, five, 0);
    expect(dropped.ending).toBe("error");
    expect(dataFrames(dropped.frames).map((frame) => frame.seq)).toEqual([1, 2]);
    const resumed = await api.connect(sandbox, five, 2);
    expect(streamText([...dropped.frames, ...resumed.frames], "stdout")).toBe(FIVE_LINES);
    expect(resumed.frames.at(-1)?.type).toBe("exit");
  });

  it("drop-stream (end) ends the response cleanly without an exit frame", async () => {
    emulator.faults.set({ faults: [{ kind: "drop-stream", afterFrames: 3, mode: "end" }] });
    const ended = await api.connect(sandbox, five, 0);
    expect(ended.ending).toBe("end");
    expect(ended.frames.map((frame) => frame.type)).toEqual(["data", "data", "data"]);
  });

  it("stall-stream stops every byte, heartbeats included, while keeping the connection open", async () => {
    const live = await api.process(sandbox, "echo a; sleep 2; echo b");
    // `a` journalled before the 600 ms read starts: on a loaded machine bash may take longer
    // than that to start, and the stalled read would then see no frame at all.
    const journalled = () => emulator.processes().find((item) => item.id === live)?.newestSeq ?? 0;
    await vi.waitFor(() => expect(journalled()).toBeGreaterThan(0), { timeout: 10_000, interval: 20 });
    emulator.faults.set({ faults: [{ kind: "stall-stream", afterFrames: 1, processId: live }] });
    const stalled = await api.connect(sandbox, live, 0, { deadlineMs: 600 });
    expect(stalled.ending).toBe("timeout");
    expect(stalled.frames.map((frame) => frame.type)).toEqual(["data"]);
    // The same wait on a healthy connection carries heartbeats, so silence above is the fault.
    const healthy = await api.connect(sandbox, live, 1, { deadlineMs: 600 });
    expect(healthy.frames.some((frame) => frame.type === "heartbeat")).toBe(true);
    await api.call("DELETE", `/sandboxes/${sandbox}/processes/${live}?grace_ms=0`);
  });

  it("duplicate-replay resends frames at or below the cursor before the new ones", async () => {
    emulator.faults.set({ faults: [{ kind: "duplicate-replay", frames: 2 }] });
    const read = await api.connect(sandbox, five, 3);
    expect(dataFrames(read.frames).map((frame) => frame.seq)).toEqual([2, 3, 4, 5]);
    expect(emulator.faults.fired().map((firing) => firing.kind)).toEqual(["duplicate-replay"]);
  });

  it("duplicate-replay waits for a connect with a cursor above 0", async () => {
    emulator.faults.set({ faults: [{ kind: "duplicate-replay" }] });
    const first = await api.connect(sandbox, five, 0);
    expect(dataFrames(first.frames).map((frame) => frame.seq)).toEqual([1, 2, 3, 4, 5]);
    const second = await api.connect(sandbox, five, 4);
    expect(dataFrames(second.frames).map((frame) => frame.seq)).toEqual([2, 3, 4, 5]);
  });

  it("sequence-gap skips one frame", async () => {
    emulator.faults.set({ faults: [{ kind: "sequence-gap", afterFrames: 1 }] });
    const read = await api.connect(sandbox, five, 0);
    expect(dataFrames(read.frames).map((frame) => frame.seq)).toEqual([1, 3, 4, 5]);
  });

  it("invalid-base64 corrupts one frame's payload", async () => {
    emulator.faults.set({ faults: [{ kind: "invalid-base64", afterFrames: 2 }] });
    const read = await api.connect(sandbox, five, 0);
    const data = dataFrames(read.frames);
    expect(data.map((frame) => frame.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(data[2]?.data_base64).not.toMatch(
      /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
    );
    expect(data[1]?.data_base64).toBe(Buffer.from("2\n").toString("base64"));
  });

  it("slow-stream delays every frame of the connection without changing it", async () => {
    emulator.faults.set({ faults: [{ kind: "slow-stream", delayMs: 30 }] });
    const read = await api.connect(sandbox, five, 0);
    expect(streamText(read.frames, "stdout")).toBe(FIVE_LINES);
    expect(emulator.requests().at(-1)).toMatchObject({ route: "process.connect", fault: "slow-stream" });
    expect(emulator.faults.fired()).toHaveLength(1);
  });

  it("omit-exit ends an exited process's stream without the exit frame, once", async () => {
    emulator.faults.set({ faults: [{ kind: "omit-exit" }] });
    const first = await api.connect(sandbox, five, 0);
    expect(first.ending).toBe("end");
    expect(first.frames.map((frame) => frame.type)).toEqual(["data", "data", "data", "data", "data"]);
    const second = await api.connect(sandbox, five, 5);
    expect(second.frames).toEqual([{ type: "exit", exit_code: 0 }]);
  });
});

describe("emulator faults: short file reads", () => {
  it("short-file answers a complete reply of the file's first bytes, once", async () => {
    const path = `/sandboxes/${sandbox}/files?path=/tmp/short-file.txt`;
    expect((await api.call("PUT", path, new TextEncoder().encode("0123456789"))).status).toBe(200);
    emulator.faults.set({ faults: [{ kind: "short-file", bytes: 4 }] });
    const cut = await api.call("GET", path);
    expect(cut.status).toBe(200);
    expect(cut.headers.get("content-length")).toBe("4");
    expect(cut.bytes.toString()).toBe("0123");
    expect(emulator.requests().at(-1)).toMatchObject({ route: "files.get", fault: "short-file" });
    expect((await api.call("GET", path)).bytes.toString()).toBe("0123456789");
  });

  it("short-file without bytes answers an empty file", async () => {
    const path = `/sandboxes/${sandbox}/files?path=/tmp/empty-read.txt`;
    await api.call("PUT", path, new TextEncoder().encode("content"));
    emulator.faults.set({ faults: [{ kind: "short-file" }] });
    const cut = await api.call("GET", path);
    expect([cut.status, cut.bytes.length]).toEqual([200, 0]);
  });
});

describe("emulator faults: eviction", () => {
  it("evict (http-410) really evicts the journal: 410 now and for any later connect from 0", async () => {
    const pid = await api.process(sandbox, "echo x; echo y >&2");
    await api.waitExit(sandbox, pid);
    emulator.faults.set({ faults: [{ kind: "evict", mode: "http-410" }] });
    expect((await api.connect(sandbox, pid, 0)).status).toBe(410);
    expect((await api.connect(sandbox, pid, 0)).status).toBe(410);
    const snapshot = emulator.processes().find((item) => item.id === pid);
    expect(snapshot?.evictedBefore).toBe(snapshot?.newestSeq);
    expect((await api.connect(sandbox, pid, snapshot?.newestSeq ?? 0)).frames.at(-1)?.type).toBe("exit");
  });

  it("evict (error-frame) ends the stream with output_offset_expired after N frames", async () => {
    const pid = await api.framedProcess(sandbox, ["echo 1", "echo 2", "echo 3", "echo 4"]);
    emulator.faults.set({ faults: [{ kind: "evict", mode: "error-frame", afterFrames: 2 }] });
    const read = await api.connect(sandbox, pid, 0);
    expect(read.frames.map((frame) => frame.type)).toEqual(["data", "data", "error"]);
    expect(read.frames.at(-1)).toEqual({ type: "error", error: "output_offset_expired" });
    expect((await api.connect(sandbox, pid, 2)).status).toBe(410);
  });
});

describe("emulator faults: lost process-create replies", () => {
  it("creates the process but destroys the connection before replying", async () => {
    emulator.faults.set({ faults: [{ kind: "lose-create-reply" }] });
    const before = emulator.processes().length;
    await expect(
      api.call("POST", `/sandboxes/${sandbox}/processes`, { cmd: "/bin/bash", args: ["-c", "sleep 300"] }),
    ).rejects.toThrow();
    const created = emulator.processes().slice(before);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ running: true, treeAlive: true });
    expect(emulator.requests().find((record) => record.fault === "lose-create-reply")?.status).toBe(0);
    await api.call("DELETE", `/sandboxes/${sandbox}/processes/${created[0]?.id}?grace_ms=0`);
  });

  it("or answers an error status although the process runs", async () => {
    emulator.faults.set({ faults: [{ kind: "lose-create-reply", status: 502 }] });
    const before = emulator.processes().length;
    const reply = await api.call("POST", `/sandboxes/${sandbox}/processes`, {
      cmd: "/bin/sleep",
      args: ["300"],
    });
    expect(reply.status).toBe(502);
    const created = emulator.processes().slice(before);
    expect(created[0]?.running).toBe(true);
    await api.call("DELETE", `/sandboxes/${sandbox}/processes/${created[0]?.id}?grace_ms=0`);
    await expect
      .poll(() => emulator.processes().find((item) => item.id === created[0]?.id)?.treeAlive === false, {
        message: "kill",
        timeout: 15_000,
      })
      .toBe(true);
  });
});

describe("emulator faults: plans", () => {
  it("arms faults from the start options and validates plans given at run time", async () => {
    const other = await startCreateosEmulator({
      rateLimitPerMinute: null,
      faults: { faults: [{ kind: "http-status", route: "sandbox.create", status: 502 }] },
    });
    try {
      const otherApi = new RawApi(other);
      expect((await otherApi.call("POST", "/sandboxes", { shape: "s-1vcpu-1gb" })).status).toBe(502);
      expect((await otherApi.call("POST", "/sandboxes", { shape: "s-1vcpu-1gb" })).status).toBe(200);
      expect(() => other.faults.add({ kind: "http-status", route: "nowhere" as never, status: 500 })).toThrow(
        expect.objectContaining({ code: "ERR_CREATEOS_EMULATOR_FAULT_PLAN" }),
      );
    } finally {
      await other.close();
    }
  });
});
