import { type CreateosEmulator, startCreateosEmulator } from "@paperclipai/createos-emulator";
import { PaperclipError } from "@paperclipai/errors";
import { explain } from "@paperclipai/errors/registry";
import { createPlugin } from "@paperclipai/plugin-createos";
import { CreateosClient, execute } from "@paperclipai/plugin-createos/client";
import type { TourContext, TourSection } from "../tour-context.js";

const LINES = 40;
const CHATTY = `for i in $(seq 1 ${LINES}); do echo "tick $i of ${LINES} ✓"; sleep 0.03; done`;
const EXPECTED = Array.from({ length: LINES }, (_, i) => `tick ${i + 1} of ${LINES} ✓\n`).join("");

/**
 * The CreateOS plugin against its local emulator: live output that survives dropped streams
 * and 503s, then the seed error `ERR_CREATEOS_OUTPUT_CONNECTION` when the API stays down.
 */
export const createosSection: TourSection = async (context: TourContext) => {
  let emulator: CreateosEmulator | undefined;
  const plugin = createPlugin({ env: {} });
  const base = { driverKey: "createos", companyId: "demo-company", environmentId: "demo-env" };
  let config: Record<string, unknown> = {};
  let lease: { providerLeaseId: string | null; metadata?: Record<string, unknown> } | undefined;
  let client: CreateosClient | undefined;
  let sandboxId = "";
  try {
    await context.step("Start the CreateOS emulator (real HTTP server, real processes)", async () => {
      emulator = await startCreateosEmulator({
        heartbeatMs: 200,
        rateLimitPerMinute: null,
        transitionMs: 20,
      });
      config = {
        apiUrl: emulator.url,
        apiKey: emulator.apiKey,
        heartbeatTimeoutMs: 1_000,
        backoffBaseMs: 50,
        backoffCapMs: 400,
        reconnectAttempts: 3,
      };
      return `listening on ${emulator.url} (loopback)`;
    });

    await context.step("Acquire a sandbox through the plugin's lease hook", async () => {
      lease = await plugin.definition.onEnvironmentAcquireLease!({ ...base, config, runId: "demo-run" });
      sandboxId = lease.providerLeaseId ?? "";
      client = new CreateosClient({
        apiUrl: emulator!.url,
        apiKey: emulator!.apiKey,
        backoff: { baseMs: 50, capMs: 400, maxRetryAfterMs: 2_000 },
      });
      return `sandbox ${sandboxId} is running, workspace /paperclip-workspace`;
    });

    await context.step("Run a chatty command while the stream drops and connect answers 503", async () => {
      emulator!.faults.set({
        faults: [
          { kind: "drop-stream", mode: "reset", afterFrames: 5, times: 2 },
          { kind: "http-status", route: "process.connect", status: 503, times: 2, skip: 1 },
          { kind: "drop-stream", mode: "end", afterFrames: 12, skip: 2 },
        ],
      });
      let live = "";
      const result = await execute(
        client!,
        {
          sandboxId,
          command: "/bin/bash",
          args: ["-c", CHATTY],
          onLog: (_stream, text) => {
            live += text;
            for (const line of text.split("\n"))
              if (/^tick (1|10|20|30|40) /.test(line)) context.log(`live: ${line}`);
          },
        },
        { stallTimeoutMs: 1_000, reconnectAttempts: 3 },
      );
      const fired = emulator!.faults.fired().map((f) => (f.kind === "http-status" ? "503" : f.kind));
      emulator!.faults.clear();
      context.log(`faults fired: ${fired.join(", ")}; connections: ${String(result.metadata.connections)}`);
      const whole = result.stdout === EXPECTED && live === EXPECTED;
      if (!whole) throw new Error("the output did not arrive whole");
      return `exit ${result.exitCode}: all ${LINES} lines arrived once and in order, in the result and the live log`;
    });

    await context.step("Keep the emulator down: the seed error and its explanation", async () => {
      emulator!.faults.set({
        faults: [{ kind: "http-status", route: "process.connect", status: 503, times: "always" }],
      });
      try {
        await execute(client!, { sandboxId, command: "sleep", args: ["30"] }, { reconnectAttempts: 3 });
      } catch (error) {
        emulator!.faults.clear();
        if (!PaperclipError.is(error, "ERR_CREATEOS_OUTPUT_CONNECTION")) throw error;
        context.log(`${error.code}: ${error.message}`);
        context.log(`details: ${JSON.stringify(error.details)}`);
        const killed =
          emulator!.processes().find((p) => p.id === error.details.processId)?.killedTree === true;
        context.log(`process tree killed before the error was thrown: ${killed ? "yes" : "no"}`);
        for (const line of explainedSections(explain(error.code), ["What it means", "Solutions"])) {
          context.log(`  ${line}`);
        }
        return `${error.code}, after ${String(error.details.attempts)} attempts (last HTTP ${String(error.details.lastStatus)})`;
      }
      throw new Error("the command should have failed while the emulator stayed down");
    });
  } finally {
    if (lease?.providerLeaseId) {
      await plugin.definition.onEnvironmentReleaseLease!({
        ...base,
        config,
        providerLeaseId: lease.providerLeaseId,
        leaseMetadata: lease.metadata ?? {},
      }).catch(() => undefined);
    }
    await plugin.definition.onShutdown?.();
    await emulator?.close();
  }
};

/** The named sections of an `explain()` page, each line cut to the tour's width. */
function explainedSections(page: string, titles: readonly string[]): string[] {
  const lines: string[] = [];
  let keep = false;
  for (const line of page.split("\n")) {
    if (line.startsWith("## ")) keep = titles.includes(line.slice(3));
    if (keep && line.trim() !== "") lines.push(line.length > 150 ? `${line.slice(0, 147)}...` : line);
  }
  return lines;
}
