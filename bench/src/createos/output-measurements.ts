import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type CreateosClient, execute } from "@paperclipai/plugin-createos/client";
import type { EmulatorProcess } from "./emulator-process.js";

const LINE = "paperclip createos benchmark 0123456789abcdefghijklmnopqrstuvwxyz";

export function producer(bytes: number): string[] {
  return ["-c", `yes '${LINE}' | head -c ${bytes}`];
}

/** Peak RSS and heap above the level before the run, sampled every 10 ms. */
export function memorySampler(): { stop(): { rssMiB: number; heapMiB: number } } {
  globalThis.gc?.();
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  const timer = setInterval(() => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed);
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      return { rssMiB: (rss - base.rss) / 2 ** 20, heapMiB: (heap - base.heapUsed) / 2 ** 20 };
    },
  };
}

/**
 * One `execute` of `bytes`, timed, its output checked whole. No memory sampling: a forced GC before
 * a command slows the command after it by most of a millisecond, which the raw path never pays.
 */
export async function timedExecute(
  client: CreateosClient,
  sandboxId: string,
  bytes: number,
  args = producer(bytes),
  cwd?: string,
) {
  let logged = 0;
  const started = performance.now();
  const result = await execute(client, {
    sandboxId,
    command: "/bin/bash",
    args,
    cwd,
    onLog: (_stream, text) => {
      logged += text.length;
    },
  });
  const ms = performance.now() - started;
  const kept = Buffer.byteLength(result.stdout);
  const received = kept + Number(result.metadata.stdoutDroppedBytes);
  if (result.exitCode !== 0 || received !== bytes || logged !== bytes) {
    throw new Error(
      `execute lost output: exit ${result.exitCode}, received ${received} of ${bytes}, logged ${logged}`,
    );
  }
  return { ms, keptChars: result.stdout.length };
}

/** `timedExecute` with the peak RSS and heap above the level before it. */
export async function throughExecute(
  client: CreateosClient,
  sandboxId: string,
  bytes: number,
  args = producer(bytes),
  cwd?: string,
) {
  const memory = memorySampler();
  const timed = await timedExecute(client, sandboxId, bytes, args, cwd);
  return { ...timed, ...memory.stop() };
}

/** The direct path: the same process output read as raw NDJSON bytes from `connect`, nothing decoded. */
export async function rawStream(
  emulator: EmulatorProcess,
  sandboxId: string,
  bytes: number,
  args = producer(bytes),
): Promise<number> {
  const headers = { "X-Api-Key": emulator.apiKey, "Content-Type": "application/json" };
  const base = `${emulator.url}/v1/sandboxes/${sandboxId}/processes`;
  const started = performance.now();
  const created = await fetch(base, {
    method: "POST",
    headers,
    body: JSON.stringify({ cmd: "/bin/bash", args }),
  });
  const { data } = (await created.json()) as { data: { process_id: string } };
  await (await fetch(`${base}/${data.process_id}/stdin/close`, { method: "POST", headers })).arrayBuffer();
  const response = await fetch(`${base}/${data.process_id}/connect?after=0`, { headers });
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) total += chunk.byteLength;
  const ms = performance.now() - started;
  if (total < bytes) throw new Error(`raw stream ended early: ${total} bytes`);
  return ms;
}

/**
 * Live heap and external memory (after a full GC, sampled every 250 ms and at the end) of a separate Node
 * process running one `execute` of `bytes`: garbage does not count, retained output does, in the heap or
 * outside it (the tail keeps ASCII output in a buffer; a large result string is external).
 */
export async function liveHeapMiB(
  emulator: EmulatorProcess,
  sandboxId: string,
  bytes: number,
): Promise<number> {
  const script = `
    import { buildScript, CreateosClient, execute } from "@paperclipai/plugin-createos/client";
    const client = new CreateosClient({ apiUrl: ${JSON.stringify(emulator.url)}, apiKey: ${JSON.stringify(emulator.apiKey)},
      rateLimit: { burst: 1000, refillPerMinute: 600000 } });
    const live = () => { const { heapUsed, external } = process.memoryUsage(); return heapUsed + external; };
    globalThis.gc();
    const base = live();
    let peak = 0;
    const timer = setInterval(() => { globalThis.gc(); peak = Math.max(peak, live() - base); }, 250);
    let logged = 0;
    const result = await execute(client, { sandboxId: ${JSON.stringify(sandboxId)}, command: "/bin/bash",
      args: ${JSON.stringify(producer(bytes))}, onLog: (_s, t) => { logged += t.length; } });
    clearInterval(timer);
    // Once more with the result alive: a short run can end before the first sample.
    globalThis.gc();
    peak = Math.max(peak, live() - base);
    if (result.exitCode !== 0 || logged !== ${bytes}) throw new Error("output lost");
    process.stdout.write(JSON.stringify({ peak }));
  `;
  const child = spawn(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
    cwd: dirname(fileURLToPath(import.meta.url)),
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (text: string) => (out += text));
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`live-heap child exited ${code}`);
  return (JSON.parse(out) as { peak: number }).peak / 2 ** 20;
}
