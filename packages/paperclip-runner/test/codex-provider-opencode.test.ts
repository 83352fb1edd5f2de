import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  commandOf,
  driveCodexRunner,
  firstEvent,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import {
  driveOpencode,
  expectOpencodeTurnRan,
  FAKE_OPENCODE,
  launchProfile as launchProfileOf,
  opencodePrepare,
  opencodeTurnSteps,
  serverProxy,
} from "./helpers/opencode-runs.js";

const toolchain = serverToolchainForFile();
const launchProfile = (): Record<string, string> => launchProfileOf(serverProxy(toolchain()));

describe("OpenCode through the Codex executor and the server's own proxy", { timeout: 120_000 }, () => {
  it("runs a turn against `opencode serve` handed to the proxy as a verified descriptor", async () => {
    await withWork(async (work) => {
      const profile = launchProfile();
      const result = await driveOpencode(
        toolchain(),
        work,
        profile,
        opencodeTurnSteps(opencodePrepare(work, profile)),
      );
      expectOpencodeTurnRan(result);
      const completed = result.committed.filter((event) => event.eventType === "item.completed");
      expect(completed.map((event) => event.payload.text)).toContainEqual(
        expect.stringMatching(/^opencode answered \(openai\/fake-model\)/),
      );
      expect(firstEvent(result, "run.terminal").payload).toMatchObject({
        provider: "opencode",
        runTerminalState: "succeeded",
      });
      expect(result.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
    });
  });

  it("refuses a launch that is not the profile's, or whose artifacts do not match their digests", async () => {
    await withWork(async (work) => {
      const profile = launchProfile();
      const tampered = { ...profile, executableSha256: `sha256:${"0".repeat(64)}` };
      const other = opencodePrepare(work, profile);
      const otherScript = { ...other, provider: { ...(other.provider as object), args: [FAKE_OPENCODE] } };
      const result = await driveCodexRunner(
        toolchain(),
        work,
        [
          { op: "queue", type: "run.prepare", payload: opencodePrepare(work, profile), id: "digest" },
          { op: "command", id: "digest" },
          { op: "queue", type: "run.prepare", payload: otherScript, id: "script" },
          { op: "command", id: "script" },
          { op: "queue", type: "runner.suspend", id: "suspend" },
          { op: "exit" },
        ],
        { opencodeLaunchProfile: tampered },
      );
      expect(commandOf(result, "digest")?.result).toMatchObject({
        status: "failed",
        result: {
          code: "command_execution_failed",
          message: "invalid provider configuration: the opencode executable does not match its sha256 digest",
        },
      });
      expect(commandOf(result, "script")?.result).toMatchObject({
        status: "failed",
        result: {
          code: "command_execution_failed",
          message:
            "invalid provider configuration: the opencode command and args must be the launch profile's proxy command and script",
        },
      });
    });
  });

  it("answers a launch whose proxy script is a FIFO instead of blocking on it", async () => {
    await withWork(async (work) => {
      const fifo = path.join(work, "proxy.cjs");
      execFileSync("mkfifo", [fifo]);
      // Nothing ever writes the FIFO: a runner that opened it to hash it would wait forever.
      const profile = { ...launchProfile(), proxyScript: fifo };
      const result = await driveCodexRunner(
        toolchain(),
        work,
        [
          { op: "queue", type: "run.prepare", payload: opencodePrepare(work, profile), id: "fifo" },
          { op: "command", id: "fifo" },
          { op: "queue", type: "runner.suspend", id: "suspend" },
          { op: "exit" },
        ],
        { opencodeLaunchProfile: profile },
      );
      expect(commandOf(result, "fifo")?.result).toMatchObject({
        status: "failed",
        result: {
          code: "command_execution_failed",
          message: "invalid provider configuration: the opencode proxy script is not a regular file",
        },
      });
    });
  });
});
