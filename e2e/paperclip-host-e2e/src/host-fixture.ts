import { chmod, mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { serverToolchain } from "@paperclipai/test-support/paperclip-toolchain";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type EmulatorProcess, startEmulator } from "./emulator-process.js";
import { HostApi, type Plugin } from "./host-api.js";
import { type PaperclipServer, startPaperclipServer } from "./paperclip-server.js";
import { installPackedPlugin } from "./plugin-install-dir.js";
import { installPlugin } from "./plugin-steps.js";
import { stopEach } from "./process-group.js";

const tail = (text: string, limit = 6000): string => text.slice(-limit);

/**
 * One suite's world: the real server with the packed plugin, and the CreateOS emulator it
 * talks to. Every failing step prints the server's, the plugin worker's and the emulator's
 * logs; `stop()` removes everything, also after a failure.
 */
export class HostFixture {
  workDir = "";
  pluginPath = "";
  server: PaperclipServer | undefined;
  emulator: EmulatorProcess | undefined;
  plugin: Plugin | undefined;
  #api: HostApi | undefined;
  /** Whether the current test already printed the logs (a failed step inside it did). */
  logsPrinted = false;

  get api(): HostApi {
    if (!this.#api) throw new Error("the host fixture is not started");
    return this.#api;
  }

  /** `isolation`: how the emulator confines its sandboxes (see `startEmulator`). */
  async start(isolation: "bwrap" | "none" = "bwrap"): Promise<void> {
    this.workDir = await mkdtemp(path.join(os.tmpdir(), "paperclip-host-e2e-"));
    const logDir = path.join(this.workDir, "logs");
    await mkdir(logDir);
    const toolchain = await this.step("resolve Node 24 and paperclipai", async () =>
      serverToolchain("the host e2e"),
    );
    this.pluginPath = await this.step("pack the plugin and install the tarballs", () =>
      installPackedPlugin(this.workDir),
    );
    this.emulator = await this.step("start the CreateOS emulator", () =>
      startEmulator(toolchain.node24, logDir, { isolation }),
    );
    // The server's own temporary files (a run's callback bridge, its adapter's skills) stay in
    // the fixture's directory: a run the worker's loss cuts short never removes them.
    const serverTmp = path.join(this.workDir, "server-tmp");
    await mkdir(serverTmp);
    await chmod(serverTmp, 0o1777);
    this.server = await this.step("onboard and run the Paperclip server", () =>
      startPaperclipServer(toolchain, this.workDir, logDir, { env: { TMPDIR: serverTmp } }),
    );
    this.#api = new HostApi(this.server.baseUrl);
  }

  /** `POST /api/plugins/install` of the unpacked tarball, by local path, until `ready`. */
  async installPlugin(): Promise<Plugin> {
    this.plugin = await this.step("POST /api/plugins/install", () =>
      installPlugin(this.api, { packageName: this.pluginPath, isLocalPath: true }),
    );
    return this.plugin;
  }

  /** The server's, the plugin worker's and the emulator's logs, for a failure. */
  async printLogs(what: string): Promise<void> {
    this.logsPrinted = true;
    let workerLogs = "(plugin not installed)";
    if (this.plugin && this.server) {
      workerLogs = await fetch(`${this.server.baseUrl}/api/plugins/${this.plugin.id}/logs?limit=200`)
        .then((response) => response.text())
        .catch((reason: unknown) => `(logs unavailable: ${String(reason)})`);
    }
    console.error(
      [
        `failed: ${what}`,
        `--- server log (${this.server?.process.logPath ?? "not started"}) ---`,
        tail(this.server?.process.output() ?? ""),
        "--- plugin worker log (GET /api/plugins/:id/logs) ---",
        tail(workerLogs),
        "--- emulator log ---",
        tail(this.emulator?.process.output() ?? ""),
      ].join("\n"),
    );
  }

  /** Runs one step; a failure prints every log before it propagates. */
  async step<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      await this.printLogs(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }

  async stop(): Promise<void> {
    const workDir = this.workDir;
    await stopEach(
      () => this.server?.stop(),
      () => this.emulator?.stop(),
    ).finally(() => (workDir ? rm(workDir, { recursive: true, force: true }) : undefined));
  }
}

/**
 * A fixture for the calling suite: started (with `then` run after it) before the first test,
 * every log printed for a failing test (an assertion, not only a step), stopped after the last.
 */
export function useHostFixture(
  isolation: "bwrap" | "none",
  then: (host: HostFixture) => Promise<void> = async () => {},
): HostFixture {
  const host = new HostFixture();
  beforeAll(async () => {
    await host.start(isolation);
    await then(host);
  }, 900_000);
  beforeEach(() => {
    host.logsPrinted = false;
  });
  afterEach(async (context) => {
    if (context.task.result?.state === "fail" && !host.logsPrinted) await host.printLogs(context.task.name);
  });
  afterAll(() => host.stop(), 120_000);
  return host;
}
