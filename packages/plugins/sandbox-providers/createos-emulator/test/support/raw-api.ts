import { setTimeout as delay } from "node:timers/promises";
import { readProcStat } from "@paperclipai/internal";
import type { CreateosEmulator } from "../../src/index.js";

/** How long a wait for something that happens "soon" may take: a hang guard, never a measure. */
const EVENTUALLY_MS = 20_000;

/** One reply of the emulator, read whole. */
export interface RawReply {
  readonly status: number;
  readonly headers: Headers;
  readonly json: { status?: string; data?: Record<string, unknown>; error?: unknown } | undefined;
  readonly bytes: Buffer;
}

export type Frame =
  | { type: "heartbeat" }
  | { type: "data"; seq: number; stream: "stdout" | "stderr"; data_base64: string }
  | { type: "exit"; exit_code?: number; signal?: string }
  | { type: "error"; error: string };

/** How a streamed read ended. */
export interface StreamRead {
  readonly status: number;
  readonly frames: Frame[];
  /** `end`: the response ended (or `maxFrames` was reached); `error`: the connection broke; `timeout`: `deadlineMs` passed first. */
  readonly ending: "end" | "error" | "timeout";
}

/** Speaks the CreateOS API to an emulator with plain fetch, without the plugin's client. */
export class RawApi {
  constructor(
    readonly emulator: CreateosEmulator,
    private readonly apiKey: string = emulator.apiKey,
  ) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<RawReply> {
    const init: RequestInit = { method, headers: { "x-api-key": this.apiKey, ...headers } };
    if (body instanceof Uint8Array) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const response = await fetch(`${this.emulator.url}/v1${path}`, init);
    const bytes = Buffer.from(await response.arrayBuffer());
    let json: RawReply["json"];
    try {
      json = JSON.parse(bytes.toString("utf8")) as RawReply["json"];
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json, bytes };
  }

  /** Creates a sandbox and waits until it is running. */
  async runningSandbox(body: Record<string, unknown> = {}): Promise<string> {
    const created = await this.call("POST", "/sandboxes", {
      shape: "s-1vcpu-1gb",
      ingress_enabled: false,
      ...body,
    });
    const id = String(created.json?.data?.id);
    await this.untilStatus(id, "running");
    return id;
  }

  async untilStatus(id: string, status: string): Promise<void> {
    // A bound on "eventually" that a loaded 2-core machine cannot reach by chance.
    for (const deadline = Date.now() + EVENTUALLY_MS; Date.now() < deadline; ) {
      const reply = await this.call("GET", `/sandboxes/${id}`);
      if (reply.json?.data?.status === status) return;
      await delay(10);
    }
    throw new Error(`sandbox ${id} never reached ${status}`);
  }

  /** Starts `/bin/bash -c script` and closes its stdin. */
  async process(sandboxId: string, script: string, extra: Record<string, unknown> = {}): Promise<string> {
    const reply = await this.call("POST", `/sandboxes/${sandboxId}/processes`, {
      cmd: "/bin/bash",
      args: ["-c", script],
      ...extra,
    });
    if (reply.status !== 200) throw new Error(`process creation answered ${reply.status}`);
    const id = String(reply.json?.data?.process_id);
    await this.call("POST", `/sandboxes/${sandboxId}/processes/${id}/stdin/close`);
    return id;
  }

  /**
   * Starts a process that writes each of `writes` (shell commands, e.g. `printf a >&2`) as its
   * own frame: after each write it waits for an acknowledgement file that is only created once
   * the emulator has journalled the frame, so no two writes can share a pipe read.
   */
  async framedProcess(sandboxId: string, writes: readonly string[], exitCode = 0): Promise<string> {
    const tag = Math.random().toString(36).slice(2);
    const steps = writes.map(
      (write, index) => `${write}; while [ ! -e /tmp/ack-${tag}-${index} ]; do sleep 0.005; done`,
    );
    const id = await this.process(sandboxId, [...steps, `exit ${exitCode}`].join("\n"));
    for (let index = 0; index < writes.length; index += 1) {
      // Polled by hand, not with vi.waitFor: exit-without-close.ts loads this file outside vitest.
      const framed = () => (this.emulator.processes().find((item) => item.id === id)?.newestSeq ?? 0) > index;
      for (const deadline = Date.now() + EVENTUALLY_MS; !framed(); ) {
        if (Date.now() >= deadline) throw new Error(`timed out waiting for frame ${index + 1}`);
        await delay(10);
      }
      await this.call(
        "PUT",
        `/sandboxes/${sandboxId}/files?path=/tmp/ack-${tag}-${index}`,
        new Uint8Array(0),
      );
    }
    await this.waitExit(sandboxId, id);
    return id;
  }

  async waitExit(sandboxId: string, processId: string): Promise<Record<string, unknown>> {
    const reply = await this.call(
      "GET",
      `/sandboxes/${sandboxId}/processes/${processId}/wait?timeout_ms=20000`,
    );
    if (reply.status !== 200) throw new Error(`wait answered ${reply.status}`);
    return reply.json?.data ?? {};
  }

  /**
   * Reads a connect stream frame by frame. Stops at the end of the response, a broken
   * connection, `maxFrames` data frames, or after `deadlineMs` in total.
   */
  async connect(
    sandboxId: string,
    processId: string,
    after: number,
    limits: { deadlineMs?: number; maxFrames?: number } = {},
  ): Promise<StreamRead> {
    const controller = new AbortController();
    const response = await fetch(
      `${this.emulator.url}/v1/sandboxes/${sandboxId}/processes/${processId}/connect?after=${after}`,
      { headers: { "x-api-key": this.apiKey }, signal: controller.signal },
    );
    const frames: Frame[] = [];
    if (response.status !== 200 || !response.body) {
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status, frames, ending: "end" };
    }
    const reader = response.body.getReader();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), limits.deadlineMs ?? 15_000);
    });
    try {
      return await this.#readFrames(reader, frames, timeout, controller, limits.maxFrames);
    } finally {
      clearTimeout(timer);
    }
  }

  async #readFrames(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    frames: Frame[],
    timeout: Promise<"timeout">,
    controller: AbortController,
    maxFrames: number | undefined,
  ): Promise<StreamRead> {
    const decoder = new TextDecoder();
    let pending = "";
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>> | "timeout";
      try {
        chunk = await Promise.race([reader.read(), timeout]);
      } catch {
        return { status: 200, frames, ending: "error" };
      }
      if (chunk === "timeout") {
        controller.abort();
        return { status: 200, frames, ending: "timeout" };
      }
      if (chunk.done) return { status: 200, frames, ending: "end" };
      pending += decoder.decode(chunk.value, { stream: true });
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        frames.push(JSON.parse(pending.slice(0, newline)) as Frame);
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
        if (maxFrames !== undefined && dataFrames(frames).length >= maxFrames) {
          controller.abort();
          return { status: 200, frames, ending: "end" };
        }
      }
    }
  }
}

export function dataFrames(frames: readonly Frame[]): Extract<Frame, { type: "data" }>[] {
  return frames.filter((frame): frame is Extract<Frame, { type: "data" }> => frame.type === "data");
}

/** Concatenated payload of one stream. */
export function streamText(frames: readonly Frame[], stream: "stdout" | "stderr"): string {
  return dataFrames(frames)
    .filter((frame) => frame.stream === stream)
    .map((frame) => Buffer.from(frame.data_base64, "base64").toString("utf8"))
    .join("");
}

/** True while `pid` is a live (non-zombie) process. */
export function isAlive(pid: number): boolean {
  const entry = readProcStat(pid);
  return entry !== undefined && !entry.zombie;
}

/** The one-letter scheduler state of `pid` (`S`, `R`, `T` for stopped…). */
export function procState(pid: number): string | undefined {
  return readProcStat(pid)?.state;
}
