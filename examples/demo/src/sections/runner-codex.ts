import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  OUR_RUNNER_BIN,
  resolveCodexToolchain,
  runCodexScenario,
} from "@paperclipai/runner-codex-oracle/scenarios";
import type { TourContext, TourSection } from "../tour-context.js";

const repoRoot = resolve(import.meta.dirname, "../../../..");
const CODEX_VERSION = "0.156.1";
const GET_CODEX = "bash scripts/lib/toolchain-cache.sh codex";

/** Whether the real Codex CLI is already in the toolchain cache (the tour never downloads its 280 MB). */
function codexInCache(): boolean {
  const cache = execFileSync("bash", [join(repoRoot, "scripts/lib/toolchain-cache.sh"), "dir"], {
    encoding: "utf8",
  }).trim();
  const marker = join(cache, `codex-${CODEX_VERSION}`, ".installed");
  return existsSync(marker) && readFileSync(marker, "utf8") === `@openai/codex@${CODEX_VERSION}`;
}

/** Our runner runs the real Codex CLI for one turn, driven by the server's own Codex transport, against a loopback stub of the Responses API. */
export const runnerCodexSection: TourSection = async (context: TourContext) => {
  await context.step("a Codex turn through the server's transport and our runner", async () => {
    if (!codexInCache()) {
      context.log(`the real Codex CLI (@openai/codex@${CODEX_VERSION}) is not in the toolchain cache`);
      context.log(`get it once with: ${GET_CODEX}   (then run the tour again)`);
      return `not run: Codex is not installed (${GET_CODEX})`;
    }
    const tools = await resolveCodexToolchain();
    context.log(`Codex ${tools.codex}`);
    context.log("model: a loopback stub of the Responses API (no network, no API key)");
    const outcome = await runCodexScenario(tools, OUR_RUNNER_BIN, "turn");
    // The driver also marks intermediate moments ("plain:accepted"); the tour shows the steps.
    for (const [name, step] of outcome.steps) {
      if (name.includes(":")) continue;
      const took = typeof step.durationMs === "number" ? `${Math.round(step.durationMs)} ms` : "done";
      context.log(`${name}: ${step.error ?? `${took}${step.status ? `, ${step.status}` : ""}`}`);
    }
    for (const event of outcome.events) context.log(`commit #${event.sourceSeq} ${event.eventType}`);
    const failed = [...outcome.steps.values()].find((step) => step.error !== undefined);
    if (failed !== undefined || outcome.fatal !== undefined) {
      throw new Error(
        `the Codex turn failed at ${failed?.step ?? "start"}: ${failed?.error ?? outcome.fatal}`,
      );
    }
    return `Codex answered "${outcome.answer}" in ${outcome.events.length} committed PRP events`;
  });
};
