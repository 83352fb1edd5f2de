import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import {
  serverToolchain as cachedServerToolchain,
  type ServerToolchain,
  tempDirForTest,
} from "@paperclipai/test-support";
import { beforeAll } from "vitest";
import { BIN } from "./run-bin.js";

const run = promisify(execFile);
const driver = path.join(import.meta.dirname, "codex-durable-driver.mjs");
/** The scripted stand-in for `codex app-server`. */
export const FAKE_CODEX = path.join(import.meta.dirname, "fake-codex-app-server.mjs");

/** The provider args that run the fake app-server in one of its hostile modes (`--fake-mode`). */
export const fakeCodexArgs = (mode: string): string[] => [FAKE_CODEX, "--fake-mode", mode];

export type { ServerToolchain };

/** Node 24 and @paperclipai/server@2026.916.1 from the toolchain cache. */
export function serverToolchain(): ServerToolchain {
  return cachedServerToolchain("the durable provider tests");
}

export interface CommittedEvent {
  readonly sourceSeq: number;
  readonly sourceEventId: string;
  readonly eventType: string;
  readonly priority: number;
  readonly payload: Record<string, unknown>;
}

export interface CommandRecord {
  readonly commandId: string;
  readonly type: string;
  readonly status: string;
  readonly result: {
    readonly status: string;
    readonly message: string;
    readonly result: Record<string, unknown> | null;
  };
}

export type Step =
  | {
      readonly op: "queue";
      readonly type: string;
      readonly payload?: Record<string, unknown>;
      readonly id?: string;
    }
  | { readonly op: "event"; readonly type: string; readonly count?: number }
  | { readonly op: "command"; readonly id: string }
  /** Waits until a command of this type the control plane queued itself (a tool result, say) is answered. */
  | { readonly op: "commandOfType"; readonly type: string }
  | { readonly op: "sigkill" }
  | { readonly op: "killProvider" }
  | { readonly op: "restart" }
  | { readonly op: "exit" }
  | { readonly op: "releaseTools" }
  /** Waits until the file at `path` (relative to the work directory) contains `text`. */
  | { readonly op: "fileContains"; readonly path: string; readonly text: string }
  /** Records the file at `path` (relative to the work directory) as it is now, into `files`. */
  | { readonly op: "snapshotFile"; readonly path: string }
  /** Waits until the fake app-servers received `count` (1) requests of `method`. */
  | { readonly op: "providerReceived"; readonly method: string; readonly count?: number };

export interface DriverResult {
  readonly committed: readonly CommittedEvent[];
  readonly invalid: readonly unknown[];
  readonly failure: string | null;
  readonly semanticCalls: readonly Record<string, unknown>[];
  readonly commands: readonly CommandRecord[];
  readonly committedSeqs: readonly number[];
  readonly deliveryCounts: readonly number[];
  readonly exits: readonly { phase: string; code: number | null; signal: string | null }[];
  readonly diagnostic: string;
  /** What the fake app-servers logged (start records with env names, received messages). */
  readonly providerLog: readonly Record<string, unknown>[];
  /** What each snapshotFile step read, in order (`text` null when the file was absent). */
  readonly files: readonly { readonly path: string; readonly text: string | null }[];
  readonly work: string;
}

/** A private work directory with a space in its name, removed when the test finishes, passed or failed. */
export async function withWork<T>(use: (work: string) => Promise<T>): Promise<T> {
  return await use(tempDirForTest("runner codex-"));
}

/** The toolchain for the tests of one file, located (and installed the first time) before the first test. */
export function serverToolchainForFile(): () => ServerToolchain {
  let tools: ServerToolchain | null = null;
  beforeAll(() => {
    tools = serverToolchain();
  });
  return () => {
    if (tools === null) throw new Error("the server toolchain is located before the first test");
    return tools;
  };
}

/** The work directory's workspace (the provider's cwd) and Codex home. */
export function workPaths(work: string): { readonly cwd: string; readonly codexHome: string } {
  return { cwd: path.join(work, "workspace"), codexHome: path.join(work, "codex home") };
}

/** Runs one scenario through the real control plane on Node 24 and collects what it saw. */
export async function driveCodexRunner(
  tools: ServerToolchain,
  work: string,
  steps: readonly Step[],
  options: {
    readonly runnerEnv?: Record<string, string>;
    readonly opencodeLaunchProfile?: Record<string, string>;
    /** Semantic tool calls are answered only at the "releaseTools" step. */
    readonly holdTools?: boolean;
    /** Added to the runner's own environment (beyond what the server's launcher passes). */
    readonly launcherEnv?: Record<string, string>;
    /** The runner to drive (ours by default; upstream's launcher for a differential test). */
    readonly runnerBin?: string;
  } = {},
): Promise<DriverResult> {
  const { cwd, codexHome } = workPaths(work);
  await mkdir(cwd, { recursive: true });
  await mkdir(codexHome, { recursive: true });
  const input = {
    serverDir: tools.serverDir,
    runnerBin: options.runnerBin ?? BIN,
    work,
    steps,
    runnerEnv: { CODEX_HOME: codexHome, ...options.runnerEnv },
    holdTools: options.holdTools === true,
    ...(options.launcherEnv ? { launcherEnv: options.launcherEnv } : {}),
    ...(options.opencodeLaunchProfile ? { opencodeLaunchProfile: options.opencodeLaunchProfile } : {}),
  };
  const scenario = path.join(work, "scenario.json");
  await writeFile(scenario, JSON.stringify(input));
  const { stdout } = await run(tools.node24, [driver, scenario], {
    maxBuffer: 256 * 1024 * 1024,
    timeout: 110_000,
  });
  const records = stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const report = records.find((record) => record.type === "report") as Record<string, unknown> | undefined;
  if (report === undefined) throw new Error(`the driver gave no report:\n${stdout}`);
  const providerLog = await readFile(path.join(codexHome, "log.jsonl"), "utf8").then(
    (text) =>
      text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    () => [],
  );
  return {
    committed: records
      .filter((record) => record.type === "committed")
      .map((record) => record.event as CommittedEvent),
    invalid: records.filter((record) => record.type === "invalid"),
    failure: (records.find((record) => record.type === "failure")?.message as string | undefined) ?? null,
    semanticCalls: records
      .filter((record) => record.type === "semantic_call")
      .map((record) => record.call as Record<string, unknown>),
    commands: report.commands as CommandRecord[],
    committedSeqs: report.committedSeqs as number[],
    deliveryCounts: report.deliveryCounts as number[],
    exits: records
      .filter((record) => record.type === "exit")
      .map(({ phase, code, signal }) => ({ phase, code, signal })) as DriverResult["exits"],
    diagnostic: report.diagnostic as string,
    providerLog,
    files: records
      .filter((record) => record.type === "file")
      .map(({ path, text }) => ({ path, text })) as DriverResult["files"],
    work,
  };
}

/** The `run.prepare` payload the server's transport builds for a Codex run, pointed at the fake app-server. */
export function codexPrepare(
  work: string,
  options: {
    readonly args?: readonly string[];
    readonly command?: string;
    readonly tools?: boolean;
    readonly contract?: boolean;
    /** The input schema of the authorized `report_progress` (a permissive one by default). */
    readonly toolSchema?: Record<string, unknown>;
  } = {},
): Record<string, unknown> {
  const operations =
    options.tools === false
      ? []
      : [
          {
            operationId: "report_progress",
            version: 1,
            description: "Report progress to the board",
            inputSchema: options.toolSchema ?? { type: "object", properties: { body: { type: "string" } } },
            responseSchema: {},
          },
        ];
  return {
    authorizedTools: authorizedTools(operations),
    ...(options.contract === false
      ? {}
      : { completionContract: { revision: "rev-1", criterionIds: ["criterion-1"] } }),
    provider: {
      kind: "codex",
      provider: "codex",
      driver: "codex_app_server",
      providerVersion: "codex-app-server-v1",
      command: options.command ?? process.execPath,
      args: options.args ?? [FAKE_CODEX],
      cwd: workPaths(work).cwd,
      model: "mock-model",
      approvalPolicy: "never",
      externallySandboxed: false,
      instructions: "Be brief.",
      collaborationMode: "default",
    },
  };
}

function authorizedTools(operations: readonly Record<string, unknown>[]): Record<string, unknown> {
  const canonical = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    if (value !== null && typeof value === "object") {
      const record = value as Record<string, unknown>;
      return `{${Object.keys(record)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
        .join(",")}}`;
    }
    return JSON.stringify(value);
  };
  return {
    schema: "paperclip.runner.authorized-tools.v1",
    schemaVersion: 1,
    catalogDigest: `sha256:${createHash("sha256").update(canonical(operations)).digest("hex")}`,
    operations,
  };
}

export const eventTypes = (events: readonly CommittedEvent[]): string[] =>
  events.map((event) => event.eventType);

/** The first committed event of a type (the test fails naming what was committed when there is none). */
export function firstEvent(result: DriverResult, type: string): CommittedEvent {
  const event = result.committed.find((candidate) => candidate.eventType === type);
  if (event === undefined) throw new Error(`no ${type} in ${eventTypes(result.committed).join(", ")}`);
  return event;
}

export function commandOf(result: DriverResult, id: string): CommandRecord | undefined {
  return result.commands.find((command) => command.commandId === id);
}

/** The pids of every fake app-server the scenario started. */
export function providerPids(result: DriverResult): number[] {
  return result.providerLog.filter((record) => record.kind === "start").map((record) => record.pid as number);
}

/** Every committed seq exactly once, contiguous from 1, each delivered once (nothing duplicated, nothing lost). */
export function expectContiguousOnce(result: DriverResult): boolean {
  return (
    result.committedSeqs.every((seq, index) => seq === index + 1) &&
    result.committed.every((event, index) => event.sourceSeq === index + 1)
  );
}

/** The steps that prepare, open and wait for the identity. */
export function openSteps(work: string, prepare: Record<string, unknown> = codexPrepare(work)): Step[] {
  return [
    { op: "queue", type: "run.prepare", payload: prepare, id: "prepare" },
    { op: "command", id: "prepare" },
    { op: "queue", type: "session.open", payload: { reuse: "same_session" }, id: "open" },
    { op: "command", id: "open" },
  ];
}

/** The close the server's transport performs: drain, then suspend, then the runner exits. */
export const closeSteps: readonly Step[] = [
  { op: "queue", type: "runner.drain", id: "drain" },
  { op: "command", id: "drain" },
  { op: "queue", type: "runner.suspend", id: "suspend" },
  { op: "exit" },
];

/** The params of every `method` message the fake app-servers received, in order. */
export function providerRequests(result: DriverResult, method: string): Record<string, unknown>[] {
  return result.providerLog
    .filter((record) => record.kind === "received")
    .map((record) => record.message as { method?: string; params?: Record<string, unknown> })
    .filter((message) => message.method === method)
    .map((message) => message.params ?? {});
}

/** What the fake app-server's plain turn commits once it started, with a completion contract bound. */
export const PLAIN_TURN_EVENTS: readonly string[] = [
  "turn.started",
  "item.started",
  "item.delta",
  "item.completed",
  "usage.reported",
  "run.result.proposed",
  "turn.completed",
  "run.terminal",
];
