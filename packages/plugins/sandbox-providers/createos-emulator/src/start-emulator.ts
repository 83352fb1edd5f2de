import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateosError } from "@paperclipai/errors";
import { probeBwrap } from "./bwrap-probe.js";
import { EmulatorState } from "./emulator-state.js";
import { createRequestHandler } from "./http/request-handler.js";
import { createLauncher } from "./launcher.js";
import { resolveEmulatorOptions } from "./options.js";
import { signalProcessTree } from "./process-tree.js";
import type { CreateosEmulator, CreateosEmulatorOptions } from "./types.js";

// Closing is cleanup: processes get a short grace period, then SIGKILL.
const CLOSE_GRACE_MS = 200;

/** A fresh directory for this emulator's sandboxes, under `workspaceRoot` or the OS temp dir. */
async function createRoot(workspaceRoot: string | undefined): Promise<string> {
  const parent = workspaceRoot ?? tmpdir();
  try {
    await mkdir(parent, { recursive: true });
    return await mkdtemp(join(parent, "createos-emulator-"));
  } catch (error) {
    throw new CreateosError(
      "ERR_CREATEOS_EMULATOR_OPTIONS",
      `Invalid CreateOS emulator options: workspaceRoot cannot hold sandbox directories (${(error as NodeJS.ErrnoException).code ?? "error"}).`,
      { cause: error, details: { option: "workspaceRoot" } },
    );
  }
}

// A test runner that exits without close() must not leave process trees or directories
// behind. One process listener serves every emulator of the process.
const exitHooks = new Set<() => void>();
let exitListener = false;
function atExit(hook: () => void): void {
  if (!exitListener) {
    exitListener = true;
    process.once("exit", () => {
      for (const run of exitHooks) run();
    });
  }
  exitHooks.add(hook);
}

/** The synchronous last resort at process exit: SIGKILL every tree, remove the root. */
function abandon(state: EmulatorState, root: string): void {
  for (const sandbox of state.sandboxes.values()) {
    for (const pgid of [
      ...sandbox.execGroups,
      ...[...sandbox.processes.values()].map((item) => item.osPid),
    ]) {
      signalProcessTree(pgid, "SIGKILL");
    }
  }
  rmSync(root, { recursive: true, force: true });
}

/**
 * Starts a CreateOS emulator on loopback. Every sandbox gets private directories under a
 * fresh root, every process is a real child process group; `close()` leaves nothing behind.
 */
export async function startCreateosEmulator(
  options: CreateosEmulatorOptions = {},
): Promise<CreateosEmulator> {
  const resolved = resolveEmulatorOptions(options);
  if (resolved.isolation !== "none") probeBwrap(resolved.bwrapPath);
  const apiKey = resolved.apiKey ?? `ceos_emulator_${randomBytes(18).toString("base64url")}`;
  const root = await createRoot(resolved.workspaceRoot);
  const state = new EmulatorState(
    resolved,
    apiKey,
    root,
    createLauncher(resolved.isolation, resolved.bwrapPath),
  );
  const server = createServer({ highWaterMark: 1024 * 1024 }, createRequestHandler(state));
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(resolved.port, resolved.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    const address = `${resolved.host.includes(":") ? `[${resolved.host}]` : resolved.host}:${resolved.port}`;
    throw new CreateosError(
      "ERR_CREATEOS_EMULATOR_LISTEN",
      `The CreateOS emulator could not listen on ${address}.`,
      {
        cause: error,
        details: {
          host: resolved.host,
          port: resolved.port,
          code: (error as NodeJS.ErrnoException).code ?? null,
        },
      },
    );
  }
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(":") ? `[${resolved.host}]` : resolved.host;
  let closing: Promise<void> | undefined;
  const onExit = () => abandon(state, root);
  atExit(onExit);

  return {
    url: `http://${host}:${port}`,
    port,
    apiKey,
    faults: {
      set: (plan) => state.faults.set(plan),
      add: (fault) => state.faults.add(fault),
      clear: () => state.faults.clear(),
      fired: () => state.faults.fired(),
    },
    sandboxes: () => state.sandboxSnapshots(),
    processes: () => state.processSnapshots(),
    requests: () => state.records.map((record) => ({ ...record })),
    settled: async () => {
      await Promise.all(state.inflight);
    },
    setSandboxStatus: (id, status) => state.sandboxes.get(id)?.force(status),
    deleteSandbox: (id, deleteOptions) =>
      state.deleteBehindClient(id, deleteOptions?.forget === true, CLOSE_GRACE_MS),
    close: () => {
      closing ??= (async () => {
        state.closing = true;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        const destroyAll = () =>
          Promise.all([...state.sandboxes.values()].map((sandbox) => sandbox.destroy(CLOSE_GRACE_MS)));
        await destroyAll();
        await Promise.all(state.inflight);
        await destroyAll();
        await closed;
        await rm(root, { recursive: true, force: true });
        exitHooks.delete(onExit);
      })();
      return closing;
    },
  };
}
