import { execFile, execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import type { TourContext, TourSection } from "../tour-context.js";

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, "../../../..");
const BIN = join(
  dirname(createRequire(import.meta.url).resolve("@paperclipai/paperclip-runner/package.json")),
  "bin",
  "paperclip-runnerd.js",
);
// The oracle's driver: the real server's control plane and launcher, on Node 24 (see e2e/runner-server-oracle).
const DRIVER = join(repoRoot, "e2e/runner-server-oracle/driver/oracle-driver.mjs");

interface DriverRecord {
  readonly type: string;
  readonly [key: string]: unknown;
}

function toolchain(what: string[]): string {
  return execFileSync("bash", [join(repoRoot, "scripts/lib/toolchain-cache.sh"), ...what], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
}

/** A durable session against the real Paperclip server's control plane: a kill while an event is in flight, then a resume. */
export const runnerDurableSection: TourSection = async (context: TourContext) => {
  const work = await mkdtemp(join(tmpdir(), "paperclip-demo-durable-"));
  try {
    await context.step(
      "durable mode: the real server's spawnRunner, a SIGKILL mid-commit, a resume",
      async () => {
        context.log("installing (once) Node 24 and @paperclipai/server@2026.916.1 into the toolchain cache");
        const node24 = toolchain(["node", "24"]);
        const serverDir = toolchain(["server"]);
        const commandLog = join(work, "harness-commands.log");
        const script = join(work, "script.json");
        await writeFile(
          script,
          JSON.stringify({
            commandLog,
            steps: [{ ready: {} }],
            on: {
              "turn.start": [
                { event: { eventType: "item.completed", payload: { text: "first" } } },
                { event: { eventType: "item.completed", payload: { text: "second" } } },
                { event: { eventType: "item.completed", payload: { text: "third" } } },
                { sleep: 60_000 },
              ],
            },
          }),
        );
        const scenario = { serverDir, runnerBin: BIN, work, kind: "sigkill", script, blockCommitAt: 9 };
        const { stdout } = await run(node24, [DRIVER, JSON.stringify(scenario)], {
          maxBuffer: 64 * 1024 * 1024,
        });
        const records = stdout
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as DriverRecord);
        const seen = new Set<number>();
        for (const record of records) {
          if (record.type === "committed") {
            const event = record.event as { sourceSeq: number; eventType: string };
            context.log(
              `${seen.has(event.sourceSeq) ? "resent " : "commit "} #${event.sourceSeq} ${event.eventType}`,
            );
            seen.add(event.sourceSeq);
          } else if (record.type === "killing") {
            context.log(`the server holds the commit of #9; SIGKILL to runner pid ${record.pid}`);
          } else if (record.type === "exit") {
            context.log(`runner exit (${record.phase}): code ${record.code}, signal ${record.signal}`);
          } else if (record.type === "harness_after_restart") {
            context.log(`the killed runner's harness (pid ${record.pid}) is alive: ${record.alive}`);
          }
        }
        const report = records.find((record) => record.type === "report") as DriverRecord & {
          freshBootstraps: number;
          committedSeqs: number[];
          commands: { type: string; status: string }[];
        };
        context.log(
          `commands: ${report.commands.map((command) => `${command.type} ${command.status}`).join(", ")}`,
        );
        // The harness's own record of what it received: the side effect that must not happen twice.
        const turns = (await readFile(commandLog, "utf8"))
          .trim()
          .split("\n")
          .filter((line) => (JSON.parse(line) as { command: string }).command === "turn.start").length;
        if (turns !== 1) throw new Error(`the harness received turn.start ${turns} times`);
        return (
          `${report.committedSeqs.length} events committed once each (1..${report.committedSeqs.length}), ` +
          `${report.freshBootstraps} tickets (one per process), turn.start received once by the harness`
        );
      },
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
};
