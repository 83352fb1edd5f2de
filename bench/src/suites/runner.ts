import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { closeSync, fdatasyncSync, openSync, writeSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  boundedRedactedDiagnostic,
  persistRunnerDiagnostic,
} from "@paperclipai/paperclip-runner/diagnostics";
import { atomicPrivateWrite } from "@paperclipai/paperclip-runner/private-fs";
import type { BenchMetric, BenchSuite } from "../bench-result.js";

const require = createRequire(import.meta.url);
const BIN = path.join(
  path.dirname(require.resolve("@paperclipai/paperclip-runner/package.json")),
  "bin/paperclip-runnerd.js",
);
const TURNS = 200;
const REPEATS = 3;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

/** JSON lines in and out of a child process, awaiting lines by predicate. */
class LineChild {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private waiter: { test: (line: Record<string, unknown>) => boolean; resolve: () => void } | null = null;

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.resume();
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      const parts = this.buffer.split("\n");
      this.buffer = parts.pop() ?? "";
      for (const part of parts) {
        if (this.waiter?.test(JSON.parse(part) as Record<string, unknown>)) {
          const { resolve } = this.waiter;
          this.waiter = null;
          resolve();
        }
      }
    });
  }

  /** Writes `line` and resolves when a line passing `test` comes back. */
  request(line: unknown, test: (line: Record<string, unknown>) => boolean): Promise<void> {
    return new Promise((resolve) => {
      this.waiter = { test, resolve };
      this.child.stdin.write(`${JSON.stringify(line)}\n`);
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGKILL");
    await exited;
  }
}

const command = (seq: number, type: string, payload: Record<string, unknown> = {}) => ({
  schema: "paperclip.prp.command.v1",
  commandId: `c${seq}`,
  controllerSeq: seq,
  type,
  payload,
});

/** Lines of the state directory's journal (one record, one fdatasync each), 0 without one. */
async function journalRecords(stateDir: string): Promise<number> {
  const text = await readFile(path.join(stateDir, "runner-journal.ndjson"), "utf8").catch(() => "");
  return text.split("\n").length - 1;
}

interface TurnFigures {
  readonly msPerTurn: number;
  /** Journal records (each one fdatasync) written per turn; 0 in memory. */
  readonly recordsPerTurn: number;
}

/** Milliseconds per turn: turn.start → harness event → harness turn.completed, through the daemon. */
async function daemonTurnMs(base: string, durable: boolean): Promise<TurnFigures> {
  const script = path.join(base, "script.json");
  await writeFile(
    script,
    JSON.stringify({
      steps: [{ ready: {} }],
      on: {
        "turn.start": [
          { event: { eventType: "item.started", turnId: "{{commandId}}" } },
          { event: { eventType: "turn.completed", turnId: "{{commandId}}" } },
        ],
      },
    }),
  );
  const stateDir = path.join(base, `state-${Math.random().toString(36).slice(2)}`);
  const args = [
    "--run-id",
    "run_b",
    "--session-id",
    "s_b",
    "--runner-id",
    "r_b",
    "--fake-harness",
    "builtin",
    "--script",
    script,
  ];
  const daemon = new LineChild(process.execPath, [
    BIN,
    ...args,
    ...(durable ? ["--state-dir", stateDir] : []),
  ]);
  // Each stdout line is a paperclip.runner.stream.v1 envelope around an event, a receipt or a diagnostic.
  const message = (line: Record<string, unknown>) =>
    (line.message ?? {}) as { commandId?: string; event?: { eventType: string; turnId?: string } };
  const isTurnDone = (id: string) => (line: Record<string, unknown>) =>
    message(line).event?.eventType === "turn.completed" && message(line).event?.turnId === id;
  await daemon.request(command(1, "run.prepare"), (line) => message(line).commandId === "c1");
  await daemon.request(command(2, "session.open"), (line) => message(line).commandId === "c2");
  const recordsBefore = await journalRecords(stateDir);
  const started = performance.now();
  for (let seq = 3; seq < 3 + TURNS; seq += 1)
    await daemon.request(command(seq, "turn.start"), isTurnDone(`c${seq}`));
  const msPerTurn = (performance.now() - started) / TURNS;
  await daemon.stop();
  return { msPerTurn, recordsPerTurn: ((await journalRecords(stateDir)) - recordsBefore) / TURNS };
}

/**
 * The disk's floor for a durable step, on the same file system as the state
 * directory: append a record the size of a turn's journal record and
 * `fdatasync` it, `TURNS` times, with the synchronous calls (no thread-pool
 * trip, as the journal does); milliseconds per append.
 */
function fdatasyncFloorMs(base: string): number {
  const fd = openSync(path.join(base, `floor-${Math.random().toString(36).slice(2)}.log`), "a", 0o600);
  const record = Buffer.from(
    `${JSON.stringify({ set: { run: { phase: "turn_running" } }, pad: "x".repeat(600) })}\n`,
  );
  try {
    const started = performance.now();
    for (let index = 0; index < TURNS; index += 1) {
      writeSync(fd, record);
      fdatasyncSync(fd);
    }
    return (performance.now() - started) / TURNS;
  } finally {
    closeSync(fd);
  }
}

/** The direct path: the same request/answer over a plain pipe to a child that echoes each line. */
async function echoTurnMs(): Promise<number> {
  const echo = new LineChild(process.execPath, [
    "-e",
    'process.stdin.setEncoding("utf8");let b="";process.stdin.on("data",c=>{b+=c;const p=b.split("\\n");b=p.pop();for(const l of p)process.stdout.write(l+"\\n")})',
  ]);
  await echo.request({ warm: true }, () => true);
  const started = performance.now();
  for (let seq = 0; seq < TURNS; seq += 1)
    await echo.request(command(seq, "turn.start"), (line) => line.controllerSeq === seq);
  const perTurn = (performance.now() - started) / TURNS;
  await echo.stop();
  return perTurn;
}

async function timeMs(run: () => Promise<unknown>, times: number): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < times; index += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

export const run: BenchSuite = async () => {
  const base = await mkdtemp(path.join(tmpdir(), "paperclip-bench-runner-"));
  try {
    const turns = {
      memory: [] as number[],
      durable: [] as number[],
      echo: [] as number[],
      floor: [] as number[],
      records: [] as number[],
    };
    for (let repeat = 0; repeat < REPEATS; repeat += 1) {
      // Interleaved, so a noisy moment on the machine hits every variant alike.
      turns.echo.push(await echoTurnMs());
      turns.memory.push((await daemonTurnMs(base, false)).msPerTurn);
      const durable = await daemonTurnMs(base, true);
      turns.durable.push(durable.msPerTurn);
      turns.records.push(durable.recordsPerTurn);
      turns.floor.push(fdatasyncFloorMs(base));
    }

    const diagnosticsDir = path.join(base, "diagnostics");
    await import("node:fs/promises").then((fs) => fs.mkdir(diagnosticsDir, { mode: 0o700 }));
    const message = `OPENAI_API_KEY=sk-bench-secret-0123456789 ${"provider said: x ".repeat(16_000)}`;
    const bounded = boundedRedactedDiagnostic(message);
    const persist = await timeMs(() => persistRunnerDiagnostic(diagnosticsDir, message), 30);
    const plainWrite = await timeMs(() => writeFile(path.join(base, "plain.log"), bounded), 30);
    const atomic = await timeMs(
      () => atomicPrivateWrite(diagnosticsDir, "state.json", Buffer.from(bounded)),
      30,
    );
    const redact = await timeMs(async () => boundedRedactedDiagnostic(message), 30);

    const metrics: BenchMetric[] = [
      {
        name: `local mode turn round trip, in memory (${TURNS} turns)`,
        unit: "ms/turn",
        higherIsBetter: false,
        ours: median(turns.memory),
        direct: median(turns.echo),
        note: "turn.start → harness event → harness turn.completed; direct = the same line echoed by a plain child",
      },
      {
        name: `local mode turn round trip, --state-dir (${TURNS} turns)`,
        unit: "ms/turn",
        higherIsBetter: false,
        ours: median(turns.durable),
        direct: median(turns.echo),
        note: "every command journalled pending before its effect, with fsyncs",
      },
      {
        name: `--state-dir turn against one fdatasync, the disk's floor (${TURNS} turns)`,
        unit: "ms/turn",
        higherIsBetter: false,
        ours: median(turns.durable),
        direct: median(turns.floor),
        note: `direct = one fdatasync of an appended record on the same file system, the cost of one durable step; ours writes ${median(turns.records)} journal records (one fdatasync each) per turn: the pending entry before the effect, then the receipt with the harness's events`,
      },
      {
        name: "persist a diagnostic (270 KB message → 64 KiB, redacted)",
        unit: "ms",
        higherIsBetter: false,
        ours: persist,
        direct: plainWrite,
        note: "verify dir, redact, bound, exclusive temp, fsync, rename, fsync dir; direct = writeFile of the bounded text",
      },
      {
        name: "atomic private write of 64 KiB",
        unit: "ms",
        higherIsBetter: false,
        ours: atomic,
        direct: plainWrite,
      },
      {
        name: "redact and bound a 270 KB message",
        unit: "MB/s",
        higherIsBetter: true,
        ours: Buffer.byteLength(message) / 1e6 / (redact / 1000),
      },
    ];
    return {
      suite: "runner",
      title: "paperclip-runner: local mode round trips and private diagnostics",
      metrics,
      notes: [
        "Upstream's runner is a Rust binary that is not published on npm, so there is no upstream peer; the direct path is the same work without the runner's guarantees.",
        `Medians of ${REPEATS} interleaved runs (turns) and of 30 runs (file operations).`,
      ],
    };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};
