// An independent controller, written from the spec (paperclip-runner.md, "Local mode")
// alone: it reuses nothing of src/ or of the other tests' helpers. It launches the built
// bin, speaks JSON lines on its stdin/stdout and checks the wire contract: one receipt per
// command with the spec's exact reasons, `event_${runId}_${seq}` ids with a contiguous
// seq, exactly one `run.terminal` as the last event, and the supervision promises.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/paperclip-runnerd.js", import.meta.url));
const HARNESS = fileURLToPath(new URL("./fixtures/independent-harness.mjs", import.meta.url));
const VANISHING_CONTROLLER = fileURLToPath(new URL("./fixtures/vanishing-controller.mjs", import.meta.url));
const SECRET_VARIABLE = "INDEPENDENT_CONTROLLER_SECRET";
const SECRET_VALUE = "sk-independent-0123456789abcdef";
const RUN_ID = "run_indep";

type Line = Record<string, unknown>;
interface Event extends Line {
  id: string;
  seq: number;
  type: string;
  data: Record<string, unknown>;
}
interface Receipt extends Line {
  commandId: string | null;
  controllerSeq: number | null;
  status: string;
  message: string;
}

let workDir = "";
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "runnerd-indep-"));
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** The controller side of one daemon: launch, send lines, wait for lines, collect everything. */
class Daemon {
  readonly lines: Line[] = [];
  readonly raw: string[] = [];
  stderr = "";
  readonly exit: Promise<{ code: number | null; signal: string | null }>;
  private readonly child: ChildProcessWithoutNullStreams;
  private partial = "";
  private waiters: (() => void)[] = [];
  private nextSeq = 1;

  constructor(args: readonly string[]) {
    this.child = spawn(
      process.execPath,
      [BIN, "--run-id", RUN_ID, "--session-id", "s1", "--runner-id", "rn1", ...args],
      {
        env: { ...process.env, [SECRET_VARIABLE]: SECRET_VALUE },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    this.child.stdin.on("error", () => undefined);
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      this.partial += chunk;
      const parts = this.partial.split("\n");
      this.partial = parts.pop() ?? "";
      for (const part of parts) {
        this.raw.push(part);
        this.lines.push(JSON.parse(part) as Line);
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    this.exit = new Promise((resolve) => {
      this.child.on("close", (code, signal) => {
        for (const wake of this.waiters.splice(0)) wake();
        resolve({ code, signal });
      });
    });
  }

  static withHarness(mode: string, extra: readonly string[] = [], commandLog?: string): Daemon {
    return new Daemon([
      "--harness-command",
      process.execPath,
      "--harness-arg",
      HARNESS,
      "--harness-arg",
      mode,
      "--harness-arg",
      SECRET_VARIABLE,
      ...(commandLog === undefined ? [] : ["--harness-arg", commandLog]),
      ...extra,
    ]);
  }

  /** Continues the controllerSeq after a restart. */
  continueFrom(seq: number): void {
    this.nextSeq = seq;
  }

  /** Writes one raw line. */
  writeLine(text: string): void {
    this.child.stdin.write(`${text}\n`);
  }

  /** Sends a well-formed command with the next controllerSeq; returns its commandId. */
  command(type: string, payload: Record<string, unknown> = {}, commandId = `cmd-${this.nextSeq}`): string {
    const line = {
      schema: "paperclip.prp.command.v1",
      commandId,
      controllerSeq: this.nextSeq,
      type,
      payload,
    };
    this.nextSeq += 1;
    this.writeLine(JSON.stringify(line));
    return commandId;
  }

  /** Sends a command and waits for its receipt. */
  async apply(type: string, payload: Record<string, unknown> = {}): Promise<Receipt> {
    const id = this.command(type, payload);
    return await this.receiptFor(id);
  }

  close(): void {
    this.child.stdin.end();
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  async waitFor<T extends Line>(what: string, test: (line: Line) => boolean): Promise<T> {
    for (;;) {
      const found = this.lines.find(test);
      if (found !== undefined) return found as T;
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(`daemon exited before ${what}; stderr: ${this.stderr}`);
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  receiptFor(commandId: string): Promise<Receipt> {
    return this.waitFor(`the receipt of ${commandId}`, (l) => isReceipt(l) && l.commandId === commandId);
  }

  event(type: string): Promise<Event> {
    return this.waitFor(`event ${type}`, (l) => isEvent(l) && l.type === type);
  }

  get events(): Event[] {
    return this.lines.filter(isEvent);
  }

  get receipts(): Receipt[] {
    return this.lines.filter(isReceipt);
  }

  /** Waits for the exit, then checks what every run must satisfy. Returns the terminal event. */
  async finished(): Promise<Event> {
    const { code } = await this.exit;
    expect(code, this.stderr).toBe(0);
    const events = this.events;
    events.forEach((event, index) => {
      expect(event.schema).toBe("paperclip.runner.stream.v1");
      expect(event.seq).toBe(index + 1);
      expect(event.id).toBe(`event_${RUN_ID}_${event.seq}`);
    });
    const terminals = events.filter((event) => event.type === "run.terminal");
    expect(terminals).toHaveLength(1);
    expect(events.at(-1)?.type).toBe("run.terminal");
    // The daemon's secret never leaves it, in any line.
    for (const raw of this.raw) expect(raw).not.toContain(SECRET_VALUE);
    expect(this.stderr).not.toContain(SECRET_VALUE);
    return terminals[0] as Event;
  }
}

function isEvent(line: Line): line is Event {
  return line.schema === "paperclip.runner.stream.v1";
}
function isReceipt(line: Line): line is Receipt {
  return line.schema === "paperclip.prp.receipt.v1";
}

/** Opens a session: run.prepare then session.open, both accepted. */
async function openSession(daemon: Daemon): Promise<void> {
  expect((await daemon.apply("run.prepare")).message).toBe("command applied");
  expect((await daemon.apply("session.open")).message).toBe("command applied");
}

// Daemons and harnesses are real processes: a loaded 2-core CI machine gets a wide budget per test.
describe.concurrent("an independent controller drives local mode over stdin/stdout", {
  timeout: 60_000,
}, () => {
  it("happy path with a protocol harness: every receipt reason of the spec, one receipt per command", async () => {
    const daemon = Daemon.withHarness("happy");
    const schema = "paperclip.prp.command.v1";
    const first = await daemon.apply("run.prepare");
    expect(first).toMatchObject({ status: "accepted", message: "command applied", controllerSeq: 1 });
    // The same command with its keys (and its payload's keys) in another order is the same command.
    daemon.writeLine(
      `{"payload":{},"type":"run.prepare","controllerSeq":1,"commandId":"cmd-1","schema":"${schema}"}`,
    );
    // Same id, other data.
    daemon.writeLine(
      JSON.stringify({
        schema,
        commandId: "cmd-1",
        controllerSeq: 1,
        type: "run.prepare",
        payload: { x: 1 },
      }),
    );
    // A gap in controllerSeq.
    daemon.writeLine(
      JSON.stringify({ schema, commandId: "gap", controllerSeq: 7, type: "run.prepare", payload: {} }),
    );
    // Another schema.
    daemon.writeLine(
      JSON.stringify({
        schema: "paperclip.prp.command.v0",
        commandId: "old",
        controllerSeq: 2,
        type: "run.prepare",
        payload: {},
      }),
    );
    const again = daemon.command("run.prepare");
    const unknown = daemon.command("session.fork");
    // Garbage: not JSON, not an object, an object that is no command.
    for (const garbage of ["this is not json", "[1,2,3]", '"text"', "{}", '{"schema":42}'])
      daemon.writeLine(garbage);

    const receipts = await daemon
      .waitFor("all early receipts", () => daemon.receipts.length >= 12)
      .then(() => daemon.receipts);
    expect(receipts.slice(0, 7).map((r) => [r.commandId, r.status, r.message])).toEqual([
      ["cmd-1", "accepted", "command applied"],
      ["cmd-1", "duplicate", "equivalent command already applied"],
      ["cmd-1", "rejected", "commandId was reused with different data"],
      ["gap", "rejected", "controllerSeq is not contiguous"],
      ["old", "rejected", "unsupported command schema"],
      [again, "rejected", "run is already prepared"],
      [unknown, "rejected", "command session.fork is not implemented in Local runner"],
    ]);
    const garbageReceipts = receipts.slice(7, 12);
    expect(garbageReceipts.every((r) => r.status === "rejected" && typeof r.message === "string")).toBe(true);

    expect((await daemon.apply("session.open")).message).toBe("command applied");
    const env = await daemon.waitFor<Event>(
      "the env report",
      (l) => isEvent(l) && l.type === "harness.event",
    );
    const names = (env.data.event as { names: string[] }).names;
    expect(names).not.toContain(SECRET_VARIABLE);
    expect((env.data.event as { watchedVariablePresent: boolean }).watchedVariablePresent).toBe(false);
    expect(names.filter((name) => !name.startsWith("PAPERCLIP_"))).toEqual(expect.arrayContaining(["PATH"]));
    for (const name of names) {
      expect([
        "PATH",
        "HOME",
        "LANG",
        "LC_ALL",
        "LC_CTYPE",
        "TZ",
        "TMPDIR",
        "USER",
        "LOGNAME",
        "PAPERCLIP_RUN_ID",
        "PAPERCLIP_SESSION_ID",
        "PAPERCLIP_RUNNER_ID",
      ]).toContain(name);
    }

    expect((await daemon.apply("turn.start", { input: "hello" })).status).toBe("accepted");
    const request = await daemon.event("harness.request");
    expect(request.data.requestId).toBe("q1");
    expect((await daemon.apply("request.resolve", { requestId: "q1", decision: "allow" })).status).toBe(
      "accepted",
    );
    const terminal = await daemon.finished();
    expect(terminal.data.reason).toBe("successful_process_and_result");

    const types = daemon.events.map((event) => event.type);
    for (const type of [
      "harness.starting",
      "harness.ready",
      "harness.event",
      "harness.request",
      "harness.result",
      "harness.exited",
    ]) {
      expect(types).toContain(type);
    }
    expect(types.indexOf("harness.starting")).toBeLessThan(types.indexOf("harness.ready"));
    expect(types.indexOf("harness.exited")).toBeLessThan(types.indexOf("run.terminal"));
    const exited = daemon.events.find((event) => event.type === "harness.exited") as Event;
    expect(exited.data).toMatchObject({ exitCode: 0, signal: null });
    expect((exited.data.logTail as { lines: string[] }).lines).toContain("received request.resolve");
    // The log message the harness sent before ready is forwarded, redacted.
    const log = daemon.events.find((event) => event.type === "harness.log") as Event;
    expect(JSON.stringify(log.data)).not.toContain("hunter2-boot-secret");
    // One receipt per command line sent (12 early lines + session.open, turn.start, request.resolve).
    expect(daemon.receipts).toHaveLength(15);
  });

  it("the scripted harness (--fake-harness --script) runs the same contract", async () => {
    const script = join(workDir, "script.json");
    await writeFile(
      script,
      JSON.stringify({
        steps: [
          { ready: {} },
          { waitFor: "turn.start" },
          { event: { kind: "x" } },
          { result: "ok" },
          { terminal: { status: "succeeded" } },
          { exit: 0 },
        ],
      }),
    );
    const daemon = new Daemon(["--fake-harness", "--script", script]);
    await openSession(daemon);
    expect((await daemon.apply("turn.start", { input: "x" })).status).toBe("accepted");
    expect((await daemon.finished()).data.reason).toBe("successful_process_and_result");
  });

  it("turn.interrupt ends the run turn_interrupted", async () => {
    const daemon = Daemon.withHarness("happy");
    await openSession(daemon);
    await daemon.apply("turn.start", { input: "long" });
    await daemon.event("harness.request");
    expect((await daemon.apply("turn.interrupt")).message).toBe("command applied");
    expect((await daemon.finished()).data.reason).toBe("turn_interrupted");
  });

  it("run.cancel ends the run run_cancelled", async () => {
    const daemon = Daemon.withHarness("happy");
    await openSession(daemon);
    await daemon.apply("turn.start");
    expect((await daemon.apply("run.cancel")).message).toBe("command applied");
    expect((await daemon.finished()).data.reason).toBe("run_cancelled");
  });

  it("runner.shutdown ends the run runner_shutdown", async () => {
    const daemon = Daemon.withHarness("happy");
    await openSession(daemon);
    expect((await daemon.apply("runner.shutdown")).message).toBe("command applied");
    expect((await daemon.finished()).data.reason).toBe("runner_shutdown");
  });

  it("controller EOF ends the run controller_closed", async () => {
    const daemon = Daemon.withHarness("happy");
    await openSession(daemon);
    await daemon.apply("turn.start");
    daemon.close();
    expect((await daemon.finished()).data.reason).toBe("controller_closed");
  });

  it("a crashing harness: harness_process_failed, harness.exited with its status and a bounded log tail", async () => {
    const daemon = Daemon.withHarness("crash");
    await openSession(daemon);
    await daemon.apply("turn.start");
    expect((await daemon.finished()).data.reason).toBe("harness_process_failed");
    const exited = daemon.events.find((event) => event.type === "harness.exited") as Event;
    expect(exited.data).toMatchObject({ exitCode: 3, signal: null });
    const tail = exited.data.logTail as { lines: string[]; droppedLines: number };
    expect(tail.lines.at(-1)).toMatch(/^crash line 299 z+$/);
    expect(tail.lines.length).toBeLessThanOrEqual(200);
    expect(tail.droppedLines).toBeGreaterThan(0);
    expect(Buffer.byteLength(tail.lines.join("\n"))).toBeLessThanOrEqual(16 * 1024);
  });

  it("a harness stdout line over 64 KiB is harness_protocol_violation", async () => {
    const daemon = Daemon.withHarness("oversized-stdout");
    await openSession(daemon);
    await daemon.apply("turn.start");
    expect((await daemon.finished()).data.reason).toBe("harness_protocol_violation");
    expect(daemon.events.map((event) => event.type)).toContain("harness.protocol_violation");
    for (const raw of daemon.raw) expect(raw).not.toContain("o".repeat(1024));
  });

  it("a harness stderr line over 64 KiB becomes a marker; the run goes on", async () => {
    const daemon = Daemon.withHarness("oversized-stderr");
    await openSession(daemon);
    await daemon.apply("turn.start");
    await daemon.event("harness.request");
    await daemon.apply("request.resolve", { requestId: "q1" });
    expect((await daemon.finished()).data.reason).toBe("successful_process_and_result");
    const exited = daemon.events.find((event) => event.type === "harness.exited") as Event;
    const lines = (exited.data.logTail as { lines: string[] }).lines;
    const marker = lines.findIndex((line) => line.includes("102400") && !line.includes("eeee"));
    expect(marker).toBeGreaterThanOrEqual(0);
    expect(lines[marker + 1]).toBe("after the long line");
  });

  it("commandIds that name Object.prototype members are ordinary new commands", async () => {
    const daemon = Daemon.withHarness("happy");
    const ids = ["constructor", "__proto__", "toString"];
    daemon.command("run.prepare", {}, ids[0]);
    daemon.command("session.open", {}, ids[1]);
    daemon.command("run.cancel", {}, ids[2]);
    for (const id of ids) expect((await daemon.receiptFor(id)).message).toBe("command applied");
    expect((await daemon.finished()).data.reason).toBe("run_cancelled");
  });

  it("a command resent with its keys reordered at every depth is a duplicate, not a second turn", async () => {
    const daemon = Daemon.withHarness("happy");
    await openSession(daemon);
    const schema = "paperclip.prp.command.v1";
    daemon.command("turn.start", { input: "a", options: { x: 1, y: [1, { p: 1, q: 2 }] } }, "turn-1");
    expect((await daemon.receiptFor("turn-1")).status).toBe("accepted");
    daemon.writeLine(
      `{"payload":{"options":{"y":[1,{"q":2,"p":1}],"x":1},"input":"a"},"type":"turn.start","controllerSeq":3,"commandId":"turn-1","schema":"${schema}"}`,
    );
    await daemon.waitFor(
      "the duplicate",
      () => daemon.receipts.filter((r) => r.commandId === "turn-1").length === 2,
    );
    const [, duplicate] = daemon.receipts.filter((r) => r.commandId === "turn-1");
    expect(duplicate).toMatchObject({ status: "duplicate", message: "equivalent command already applied" });
    // An array order change is other data.
    daemon.writeLine(
      JSON.stringify({
        schema,
        commandId: "turn-1",
        controllerSeq: 3,
        type: "turn.start",
        payload: { input: "a", options: { x: 1, y: [{ p: 1, q: 2 }, 1] } },
      }),
    );
    await daemon.waitFor(
      "the reuse",
      () => daemon.receipts.filter((r) => r.commandId === "turn-1").length === 3,
    );
    expect(daemon.receipts.filter((r) => r.commandId === "turn-1")[2]?.message).toBe(
      "commandId was reused with different data",
    );
    await daemon.event("harness.request");
    expect(daemon.events.filter((event) => event.type === "harness.request")).toHaveLength(1);
    await daemon.apply("run.cancel");
    expect((await daemon.finished()).data.reason).toBe("run_cancelled");
  });

  it("SIGTERM to the daemon stops the run as runner.shutdown does", async () => {
    const daemon = Daemon.withHarness("happy");
    await openSession(daemon);
    daemon.signal("SIGTERM");
    expect((await daemon.finished()).data.reason).toBe("runner_shutdown");
  });

  it("a harness that ignores SIGTERM and stdin EOF is SIGKILLed with its whole group", async () => {
    const daemon = Daemon.withHarness("stubborn");
    await openSession(daemon);
    const report = await daemon.waitFor<Event>(
      "the grandchild",
      (l) => isEvent(l) && l.type === "harness.event",
    );
    const grandchild = (report.data.event as { pid: number }).pid;
    expect(() => process.kill(grandchild, 0)).not.toThrow();
    await daemon.apply("run.cancel");
    expect((await daemon.finished()).data.reason).toBe("run_cancelled");
    const exited = daemon.events.find((event) => event.type === "harness.exited") as Event;
    expect(exited.data).toMatchObject({ exitCode: null, signal: "SIGKILL" });
    expect(() => process.kill(grandchild, 0)).toThrow(/ESRCH/);
  });

  it("a harness stdout line of exactly 64 KiB is a frame, not a violation", async () => {
    const daemon = Daemon.withHarness("exact-frame");
    await openSession(daemon);
    await daemon.apply("turn.start");
    await daemon.event("harness.request");
    await daemon.apply("request.resolve", { requestId: "q1" });
    expect((await daemon.finished()).data.reason).toBe("successful_process_and_result");
    const blob = daemon.events.find(
      (event) => event.type === "harness.event" && "blob" in (event.data.event as object),
    );
    expect(blob).toBeDefined();
    expect(((blob as Event).data.event as { blob: string }).blob.length).toBeGreaterThan(65_000);
  });

  it("a controller killed mid-turn: the daemon stops its harness and exits, no failure, no spin", async () => {
    const diagnostics = await mkdtemp(join(workDir, "diag-"));
    const controller = spawn(process.execPath, [
      VANISHING_CONTROLLER,
      BIN,
      ...[
        "--run-id",
        RUN_ID,
        "--session-id",
        "s1",
        "--runner-id",
        "rn1",
        "--diagnostics-directory",
        diagnostics,
      ],
      ...["--harness-command", process.execPath, "--harness-arg", HARNESS, "--harness-arg", "happy"],
    ]);
    let printed = "";
    controller.stdout.on("data", (chunk: Buffer) => {
      printed += String(chunk);
    });
    await new Promise((resolve) => controller.on("close", resolve));
    const { daemon, harness } = JSON.parse(printed) as { daemon: number; harness: number };
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    // Bounded by the test's timeout: a daemon that spins on its broken pipes never leaves.
    while (alive(daemon) || alive(harness)) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await readdir(diagnostics)).toEqual([]);
  });

  it("durable state: a SIGKILLed daemon restarted on its state neither repeats nor loses a command", async () => {
    const stateDir = join(await mkdtemp(join(workDir, "state-")), "state");
    const commandLog = join(workDir, `commands-${Date.now()}.log`);
    const first = Daemon.withHarness("happy", ["--state-dir", stateDir], commandLog);
    await openSession(first);
    const turn = first.command("turn.start", { input: "one" });
    await first.event("harness.request");
    first.signal("SIGKILL");
    expect((await first.exit).signal).toBe("SIGKILL");
    const seenBefore = first.events;

    const second = Daemon.withHarness("happy", ["--state-dir", stateDir], commandLog);
    const reconciled = await second.event("runner.reconciled");
    expect(reconciled.data).toMatchObject({ resumedSession: true, abandonedTurn: turn });
    // The controller retries what it is unsure of: the turn is answered from the journal, not run again.
    second.writeLine(
      JSON.stringify({
        schema: "paperclip.prp.command.v1",
        commandId: turn,
        controllerSeq: 3,
        type: "turn.start",
        payload: { input: "one" },
      }),
    );
    expect(await second.receiptFor(turn)).toMatchObject({
      status: "duplicate",
      message: "equivalent command already applied",
      original: { status: "accepted", message: "command applied" },
    });
    second.continueFrom(4);
    await second.event("harness.ready");
    expect((await second.apply("turn.start", { input: "two" })).status).toBe("accepted");
    // The replayed outbox holds the first harness's request too: wait for the new harness's one.
    await second.waitFor(
      "the new request",
      (l) => isEvent(l) && l.type === "harness.request" && l.seq > reconciled.seq,
    );
    await second.apply("request.resolve", { requestId: "q1" });
    const { code } = await second.exit;
    expect(code).toBe(0);
    // One event stream across both daemons: replayed events keep their ids, and the seq has no gap.
    const bySeq = new Map<number, string>();
    for (const event of [...seenBefore, ...second.events]) {
      const known = bySeq.get(event.seq);
      if (known !== undefined) expect(event.id).toBe(known);
      bySeq.set(event.seq, event.id);
      expect(event.id).toBe(`event_${RUN_ID}_${event.seq}`);
    }
    const seqs = [...bySeq.keys()].sort((a, b) => a - b);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    expect(second.events.filter((event) => event.type === "run.terminal")).toHaveLength(1);
    expect(second.events.at(-1)?.data.reason).toBe("successful_process_and_result");
    // What the harnesses received: the first turn once, the session reopened once with resume.
    const received = (await readFile(commandLog, "utf8")).trim().split("\n");
    expect(received).toEqual([
      "cmd-2 session.open false",
      `${turn} turn.start false`,
      "cmd-2 session.open true",
      "cmd-4 turn.start false",
      "cmd-5 request.resolve false",
    ]);

    // A daemon restarted on the finished run answers every line already sent, the first included.
    const third = Daemon.withHarness("happy", ["--state-dir", stateDir], commandLog);
    const schema = "paperclip.prp.command.v1";
    third.writeLine(
      JSON.stringify({ schema, commandId: "cmd-1", controllerSeq: 1, type: "run.prepare", payload: {} }),
    );
    third.writeLine(
      JSON.stringify({ schema, commandId: "late", controllerSeq: 6, type: "turn.start", payload: {} }),
    );
    third.writeLine("not json");
    expect((await third.exit).code).toBe(0);
    expect(third.receipts.map((r) => [r.commandId, r.status, r.message])).toEqual([
      ["cmd-1", "duplicate", "equivalent command already applied"],
      ["late", "rejected", "run has already finished"],
      [null, "rejected", "command is not valid JSON"],
    ]);
  });

  it("a harness that exits 0 without a result is semantic_result_missing", async () => {
    const daemon = Daemon.withHarness("no-result");
    await openSession(daemon);
    await daemon.apply("turn.start");
    expect((await daemon.finished()).data.reason).toBe("semantic_result_missing");
  });
});
