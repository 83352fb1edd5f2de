import { mkdtemp, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { EmulatorIsolation } from "@paperclipai/createos-emulator";
import { emulatorBinPath } from "./emulator-bin.js";
import { type GroupProcess, startGroup, waitFor } from "./process-group.js";

/** The CreateOS emulator as a user starts it: its bin, sandboxes confined by bubblewrap. */
export interface EmulatorProcess {
  readonly url: string;
  readonly apiKey: string;
  readonly process: GroupProcess;
  /** The directory the emulator keeps its sandboxes' directories under. */
  readonly workspaceRoot: string;
  /** Directories of sandboxes that still exist on disk (a deleted sandbox removes its own). */
  sandboxDirectories(): Promise<string[]>;
  /** `GET /v1/sandboxes/{id}`'s status, as the host's plugin sees it. */
  sandboxStatus(id: string): Promise<string>;
  /** Arms fault rules through the control plane (`PUT /_emulator/faults`). */
  armFaults(faults: readonly Record<string, unknown>[]): Promise<void>;
  clearFaults(): Promise<void>;
  /** Deletes a sandbox behind the plugin's back, as another CreateOS client would. */
  deleteSandbox(id: string): Promise<void>;
  stop(): Promise<void>;
}

// Under bubblewrap the sandbox's own directory is mounted over /tmp, so the root is elsewhere.
const WORKSPACE_PARENT = "/var/tmp";

async function control(
  emulator: { url: string; apiKey: string },
  method: "PUT" | "DELETE",
  name: string,
  body?: string,
): Promise<void> {
  const response = await fetch(`${emulator.url}/_emulator/${name}`, {
    method,
    headers: { "X-Api-Key": emulator.apiKey },
    ...(body === undefined ? {} : { body }),
  });
  if (!response.ok)
    throw new Error(`${method} /_emulator/${name}: HTTP ${response.status} ${await response.text()}`);
}

/** How `startEmulator` runs the emulator. */
export interface EmulatorStart {
  /** The `createos-emulator` bin to run, by default the workspace package's. */
  readonly binPath?: string;
  /**
   * `"bwrap"` (the default) confines every command; `"none"` runs the sandboxes' processes as
   * plain children, which, as in a CreateOS sandbox (a VM), outlive the command that started
   * them and reach loopback (under bubblewrap each command is its own process and network
   * namespace, so a background server such as the host's callback bridge dies with it);
   * `"namespace"` runs them as `"none"` does, each in a mount namespace where the sandbox's
   * paths are exact (`/paperclip-workspace`), as a runner that reads paths from the server needs.
   */
  readonly isolation?: EmulatorIsolation;
  /**
   * Off: no per-caller rate limit (CreateOS's 300 requests a minute). A remote runner's run
   * sends hundreds of requests (staging, the server's process poll each second), which would
   * queue behind the limit, which such a test does not study.
   */
  readonly rateLimit?: "off";
}

export async function startEmulator(
  node: string,
  logDir: string,
  { binPath = emulatorBinPath(), isolation = "bwrap", rateLimit }: EmulatorStart = {},
): Promise<EmulatorProcess> {
  const workspaceRoot = await mkdtemp(path.join(WORKSPACE_PARENT, "paperclip-host-e2e-"));
  const process = startGroup(
    node,
    [
      binPath,
      "--port",
      "0",
      "--json",
      "--isolation",
      isolation,
      "--workspace-root",
      workspaceRoot,
      ...(rateLimit === "off" ? ["--rate-limit", "off"] : []),
    ],
    { logPath: path.join(logDir, "emulator.log") },
  );
  let ready: { url: string; apiKey: string };
  try {
    ready = await waitFor(
      "the emulator prints its address",
      () => {
        const line = process.output().split("\n")[0];
        return line?.startsWith("{") && process.output().includes("\n")
          ? (JSON.parse(line) as { url: string; apiKey: string })
          : undefined;
      },
      { timeoutMs: 30_000, process },
    );
  } catch (error) {
    await process.stop();
    await rm(workspaceRoot, { recursive: true, force: true });
    throw error;
  }
  return {
    ...ready,
    process,
    workspaceRoot,
    async sandboxDirectories() {
      const found: string[] = [];
      for (const emulatorDir of await readdir(workspaceRoot)) {
        for (const sandbox of await readdir(path.join(workspaceRoot, emulatorDir))) {
          found.push(path.join(emulatorDir, sandbox));
        }
      }
      return found;
    },
    async sandboxStatus(id) {
      const response = await fetch(`${ready.url}/v1/sandboxes/${encodeURIComponent(id)}`, {
        headers: { "X-Api-Key": ready.apiKey },
      });
      const body = (await response.json()) as { data?: { status?: string } };
      return body.data?.status ?? `HTTP ${response.status}`;
    },
    async armFaults(faults) {
      await control(ready, "PUT", "faults", JSON.stringify({ faults }));
    },
    async clearFaults() {
      await control(ready, "DELETE", "faults");
    },
    async deleteSandbox(id) {
      await control(ready, "DELETE", `sandboxes/${encodeURIComponent(id)}`);
    },
    async stop() {
      await process.stop();
      await rm(workspaceRoot, { recursive: true, force: true });
    },
  };
}
