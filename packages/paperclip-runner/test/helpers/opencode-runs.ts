import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import {
  closeSteps,
  codexPrepare,
  commandOf,
  type DriverResult,
  driveCodexRunner,
  eventTypes,
  firstEvent,
  type ServerToolchain,
  type Step,
  withWork,
  workPaths,
} from "./codex-durable.js";
import { upstreamRunner } from "./upstream-runner.js";

// OpenCode runs through the real control plane: the launch profile the server passes
// (`--opencode-*`), with the server's own proxy or the scripted fake one as its proxy script.

/** A stand-in for `opencode serve`, behind the server's own proxy. */
export const FAKE_OPENCODE = path.join(import.meta.dirname, "fake-opencode-serve.cjs");
/** A scripted stand-in for the proxy itself (turn scripts in its header). */
export const FAKE_OPENCODE_PROXY = path.join(import.meta.dirname, "fake-opencode-proxy.cjs");

const digest = (file: string): string =>
  `sha256:${createHash("sha256").update(readFileSync(file)).digest("hex")}`;

/** The server's own `opencode-app-server-proxy.cjs`. */
export const serverProxy = (tools: ServerToolchain): string =>
  path.join(
    tools.serverDir,
    "node_modules/@paperclipai/server/dist/vendor/paperclip-runner/cli/opencode-app-server-proxy.cjs",
  );

/** The launch profile the server passes: node running `proxyScript`, and the opencode binary. */
export function launchProfile(
  proxyScript: string,
  executable: string = FAKE_OPENCODE,
): Record<string, string> {
  return {
    command: process.execPath,
    commandSha256: digest(process.execPath),
    proxyScript,
    proxyScriptSha256: digest(proxyScript),
    executable,
    executableSha256: digest(executable),
  };
}

/** The `run.prepare` payload of an OpenCode run launched by `profile`. */
export function opencodePrepare(work: string, profile: Record<string, string>): Record<string, unknown> {
  const payload = codexPrepare(work);
  return {
    ...payload,
    provider: {
      ...(payload.provider as Record<string, unknown>),
      kind: "opencode",
      provider: "opencode",
      driver: "opencode_server",
      providerVersion: "1.18.29",
      command: profile.command,
      args: [profile.proxyScript],
      model: "openai/fake-model",
    },
  };
}

/** One OpenCode run of `steps` launched by `profile`; the proxy's log (the fake proxy's, or nothing) is the provider log. */
export async function driveOpencode(
  tools: ServerToolchain,
  work: string,
  profile: Record<string, string>,
  steps: readonly Step[],
  runnerBin?: string,
  /** Added to the runner's environment (as `LD_PRELOAD`, say). */
  launcherEnv?: Record<string, string>,
): Promise<DriverResult> {
  return await driveCodexRunner(tools, work, steps, {
    opencodeLaunchProfile: profile,
    // The fake proxy logs where the driver reads the fake app-server's log.
    runnerEnv: {
      PAPERCLIP_OPENCODE_RUNTIME_DIR: workPaths(work).codexHome,
      PAPERCLIP_OPENCODE_PERMISSION_MODE: "allow",
    },
    ...(runnerBin === undefined ? {} : { runnerBin }),
    ...(launcherEnv === undefined ? {} : { launcherEnv }),
  });
}

/** One turn of an OpenCode run: `run.prepare` with `prepare`, the session opened, a turn to its terminal, the close. */
export const opencodeTurnSteps = (prepare: Record<string, unknown>): Step[] => [
  { op: "queue", type: "run.prepare", payload: prepare, id: "prepare" },
  { op: "queue", type: "session.open", id: "open" },
  { op: "event", type: "session.started" },
  { op: "queue", type: "turn.start", payload: { text: "hello" }, id: "turn" },
  { op: "event", type: "run.terminal" },
  ...closeSteps,
];

/** What a turn of `opencodeTurnSteps` that ran shows: prepared on `opencode_server`, started, completed. */
export function expectOpencodeTurnRan(result: DriverResult): void {
  expect(result.failure).toBeNull();
  expect(result.invalid).toEqual([]);
  expect(commandOf(result, "prepare")?.result.result).toEqual({
    status: "prepared",
    provider: "opencode",
    driver: "opencode_server",
  });
  expect(firstEvent(result, "session.started").payload).toMatchObject({ provider: "opencode" });
  expect(eventTypes(result.committed)).toContain("turn.completed");
}

/** Ours, then upstream's runner, each launched by `profile` (the fake proxy by default) with the same steps. */
export async function bothOnFakeProxy(
  tools: ServerToolchain,
  steps: (work: string, profile: Record<string, string>) => Step[],
  profile: Record<string, string> = launchProfile(FAKE_OPENCODE_PROXY),
): Promise<[DriverResult, DriverResult]> {
  const upstreamBin = upstreamRunner();
  const ours = await withWork((work) => driveOpencode(tools, work, profile, steps(work, profile)));
  const upstream = await withWork((work) =>
    driveOpencode(tools, work, profile, steps(work, profile), upstreamBin),
  );
  return [ours, upstream];
}
