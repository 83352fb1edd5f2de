import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { type ServerToolchain, serverToolchain } from "@paperclipai/test-support";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "../../..");
export const runnerBin = path.join(repoRoot, "packages/paperclip-runner/bin/paperclip-runnerd.js");
const driver = path.join(import.meta.dirname, "../driver/oracle-driver.mjs");

export type Toolchain = ServerToolchain;

/** Node 24 and @paperclipai/server@2026.916.1 from the toolchain cache. */
export function toolchainPaths(): Toolchain {
  return serverToolchain("the oracle tests");
}

export interface DriverRecord {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface CommittedEvent {
  readonly sourceSeq: number;
  readonly sourceEventId: string;
  readonly eventType: string;
  readonly payload: Record<string, unknown>;
}

export interface ScenarioResult {
  readonly records: readonly DriverRecord[];
  readonly committed: readonly CommittedEvent[];
  readonly report: {
    readonly commands: readonly {
      commandId: string;
      type: string;
      status: string;
      result: Record<string, unknown>;
    }[];
    readonly committedEventIds: readonly string[];
    readonly committedSeqs: readonly number[];
    readonly deliveryCounts: readonly number[];
    readonly ackedSourceSeq: number;
    readonly freshBootstraps: number;
    readonly connectionCount: number;
    /** The PRP version each connection lease the server still holds was negotiated at. */
    readonly leaseProtocolVersions: readonly number[];
    readonly replayDeliveries: number;
    readonly malformedFrames: number;
    readonly runnerStateDirMode: number;
  };
  readonly exits: readonly { phase: string; code: number | null; signal: string | null }[];
  readonly work: string;
}

export interface Scenario {
  readonly kind: "happy" | "sigkill" | "expire_lease" | "tamper_server_to_runner" | "renew" | "outbox_full";
  readonly maxOutboxBytes?: number;
  readonly p0ReserveBytes?: number;
  readonly script?: Record<string, unknown>;
  readonly failCommitAt?: number;
  readonly blockCommitAt?: number;
  readonly tamper?: "server_to_runner" | "runner_to_server";
}

/** Runs one scenario of the driver on Node 24 and collects what the server saw. */
export async function runScenario(
  tools: Toolchain,
  work: string,
  scenario: Scenario,
): Promise<ScenarioResult> {
  let scriptPath: string | undefined;
  if (scenario.script !== undefined) {
    scriptPath = path.join(work, "script.json");
    await writeFile(scriptPath, JSON.stringify(scenario.script));
  }
  const input = {
    serverDir: tools.serverDir,
    runnerBin,
    work,
    kind: scenario.kind,
    ...(scriptPath === undefined ? {} : { script: scriptPath }),
    ...(scenario.failCommitAt === undefined ? {} : { failCommitAt: scenario.failCommitAt }),
    ...(scenario.blockCommitAt === undefined ? {} : { blockCommitAt: scenario.blockCommitAt }),
    ...(scenario.tamper === undefined ? {} : { tamper: scenario.tamper }),
    ...(scenario.maxOutboxBytes === undefined ? {} : { maxOutboxBytes: scenario.maxOutboxBytes }),
    ...(scenario.p0ReserveBytes === undefined ? {} : { p0ReserveBytes: scenario.p0ReserveBytes }),
  };
  const { stdout } = await run(tools.node24, [driver, JSON.stringify(input)], {
    maxBuffer: 64 * 1024 * 1024,
    timeout: 110_000,
  });
  const records = stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as DriverRecord);
  const report = records.find((record) => record.type === "report");
  if (report === undefined) throw new Error(`the driver gave no report:\n${stdout}`);
  return {
    records,
    committed: records
      .filter((record) => record.type === "committed")
      .map((record) => record.event as CommittedEvent),
    report: report as unknown as ScenarioResult["report"],
    exits: records.filter((record) => record.type === "exit") as unknown as ScenarioResult["exits"],
    work,
  };
}
