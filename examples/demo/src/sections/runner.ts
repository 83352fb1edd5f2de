import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TourContext, TourSection } from "../tour-context.js";

const BIN = join(
  dirname(createRequire(import.meta.url).resolve("@paperclipai/paperclip-runner/package.json")),
  "bin",
  "paperclip-runnerd.js",
);

/**
 * One stdout line's message (the `message` of a `paperclip.runner.stream.v1` envelope):
 * a PRP event, a command receipt or a diagnostic.
 */
interface Line {
  readonly kind: "event" | "command_receipt" | "diagnostic";
  readonly event?: {
    readonly sourceSeq: number;
    readonly eventType: string;
    readonly turnId?: string;
    readonly payload: Record<string, unknown>;
  };
  readonly commandId?: string;
  readonly status?: string;
  readonly detail?: string;
  readonly original?: { readonly status: string };
}

/** The controller side of local mode: JSON lines to the daemon's stdin, JSON lines back from its stdout. */
class Daemon {
  readonly lines: Line[] = [];
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private wake: (() => void) | null = null;

  constructor(args: readonly string[]) {
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdin.on("error", () => undefined);
    this.child.stderr.resume();
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      const parts = this.buffer.split("\n");
      this.buffer = parts.pop() ?? "";
      for (const part of parts) this.lines.push((JSON.parse(part) as { message: Line }).message);
      this.wake?.();
    });
    this.exited = new Promise((resolve) =>
      this.child.once("exit", (code, signal) => {
        this.wake?.();
        resolve({ code, signal });
      }),
    );
  }

  send(commandId: string, controllerSeq: number, type: string, payload: Record<string, unknown> = {}): void {
    const command = { schema: "paperclip.prp.command.v1", commandId, controllerSeq, type, payload };
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }

  async until(predicate: (line: Line) => boolean): Promise<Line> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const found = this.lines.find(predicate);
      if (found !== undefined) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 200);
      });
    }
    throw new Error("the daemon did not answer as expected");
  }

  receipt(commandId: string): Promise<Line> {
    return this.until((line) => line.kind === "command_receipt" && line.commandId === commandId);
  }

  /** The scripted harness names each turn by its command id and completes it with a `turn.completed`. */
  turnCompleted(commandId: string): Promise<Line> {
    return this.until(
      (line) => line.event?.eventType === "turn.completed" && line.event.turnId === commandId,
    );
  }

  event(eventType: string): Promise<Line> {
    return this.until((line) => line.event?.eventType === eventType);
  }

  events(): Line[] {
    return this.lines.filter((line) => line.kind === "event");
  }
}

export const runnerSection: TourSection = async (context: TourContext) => {
  const base = await mkdtemp(join(tmpdir(), "paperclip-demo-runner-"));
  const stateDir = join(base, "state");
  const sideEffects = join(base, "harness-commands.log");
  const script = join(base, "script.json");
  // The scripted harness appends every command it receives to a file: the side effect that must happen once.
  await writeFile(
    script,
    JSON.stringify({
      commandLog: sideEffects,
      steps: [{ ready: { name: "scripted" } }],
      on: {
        "turn.start": [
          { event: { eventType: "item.started", turnId: "{{commandId}}", payload: { text: "working" } } },
          { sleep: 400 },
          { event: { eventType: "turn.completed", turnId: "{{commandId}}" } },
        ],
      },
    }),
  );
  const args = [
    "--run-id",
    "run_demo",
    "--session-id",
    "session_demo",
    "--runner-id",
    "runner_demo",
    "--fake-harness",
    "builtin",
    "--script",
    script,
    "--state-dir",
    stateDir,
  ];
  const describe = (line: Line): string =>
    line.kind === "command_receipt"
      ? `receipt ${line.commandId}: ${line.status} (${line.detail}${line.original ? `; first: ${line.original.status}` : ""})`
      : line.kind === "event"
        ? `#${line.event?.sourceSeq} ${line.event?.eventType}`
        : `diagnostic: ${line.detail}`;

  try {
    await context.step("a scripted session: prepare, open, two turns", async () => {
      context.log(
        `paperclip-runnerd --run-id run_demo ... --fake-harness builtin --script ${script} --state-dir ${stateDir}`,
      );
      const first = new Daemon(args);
      first.send("c1", 1, "run.prepare");
      first.send("c2", 2, "session.open");
      first.send("c3", 3, "turn.start", { input: "write the plan" });
      await first.turnCompleted("c3");
      first.send("c4", 4, "turn.start", { input: "apply the plan" });
      await first.receipt("c4");
      for (const line of first.lines.slice(-5)) context.log(describe(line));
      context.log("SIGKILL to the daemon while turn c4 is running");
      first.kill();
      const exit = await first.exited;
      return `${first.events().length} events, turn c3 done, c4 accepted, daemon killed (${exit.signal})`;
    });

    await context.step("restart with the same --state-dir; the controller resends everything", async () => {
      const second = new Daemon(args);
      second.send("c1", 1, "run.prepare");
      second.send("c2", 2, "session.open");
      second.send("c3", 3, "turn.start", { input: "write the plan" });
      second.send("c4", 4, "turn.start", { input: "apply the plan" });
      second.send("c3", 3, "turn.start", { input: "something else" });
      const reconciled = (await second.event("runner.reconciled")).event;
      context.log(
        `#${reconciled?.sourceSeq} runner.reconciled: resent ${reconciled?.payload.replayedEvents} unacknowledged events, ` +
          `abandoned turn ${reconciled?.payload.abandonedTurn}, session resumed: ${reconciled?.payload.resumedSession}`,
      );
      const reused = await second.until((line) => line.commandId === "c3" && line.status === "rejected");
      for (const line of second.lines.filter((line) => line.kind === "command_receipt"))
        context.log(describe(line));
      if (reused.detail !== "commandId was reused with different data")
        throw new Error("a reused id was not refused");
      second.send("c5", 5, "turn.start", { input: "check the result" });
      await second.turnCompleted("c5");
      second.send("c6", 6, "runner.shutdown");
      const terminal = (await second.event("run.terminal")).event;
      const exit = await second.exited;
      const reason = (terminal?.payload.reconciliation as { reason?: string } | undefined)?.reason;
      context.log(`#${terminal?.sourceSeq} run.terminal: ${reason}; exit ${exit.code}`);
      return "c1-c4 answered from the journal, a reused id refused, c5 and shutdown applied";
    });

    await context.step("the journal's exactly-once result", async () => {
      const state = JSON.parse(await readFile(join(stateDir, "runner-state.json"), "utf8")) as {
        journal: Record<string, { type: string; status: string; outcome: { status: string } | null }>;
        nextEventSeq: number;
      };
      const mode = ((await stat(join(stateDir, "runner-state.json"))).mode & 0o777).toString(8);
      context.log(`runner-state.json (mode ${mode}), next event seq ${state.nextEventSeq}:`);
      for (const [id, entry] of Object.entries(state.journal))
        context.log(`  ${id} ${entry.type.padEnd(15)} ${entry.status} ${entry.outcome?.status ?? ""}`);
      const delivered = (await readFile(sideEffects, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { commandId: string; command: string; resume: boolean });
      const turns = delivered
        .filter((entry) => entry.command === "turn.start")
        .map((entry) => entry.commandId);
      context.log(`turns the harnesses received: ${turns.join(", ")}`);
      const once = turns.join(",") === "c3,c4,c5";
      if (!once) throw new Error(`expected each turn exactly once, got ${turns.join(",")}`);
      return "every turn reached a harness exactly once across the SIGKILL";
    });
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};
