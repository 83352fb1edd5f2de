import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ServerToolchain } from "@paperclipai/test-support/paperclip-toolchain";
import { startOnFreePorts } from "@paperclipai/test-support/ports";
import { type GroupProcess, startGroup, waitFor } from "./process-group.js";

/** A running `paperclipai run` with a fresh home, on free loopback ports. */
export interface PaperclipServer {
  readonly baseUrl: string;
  readonly home: string;
  readonly process: GroupProcess;
  stop(): Promise<void>;
}

/** What a caller adds to the server's environment (which its children, e.g. a runner, inherit). */
export interface ServerEnvExtras {
  /** Variables added to the server's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** A directory searched first on the server's `PATH`. */
  readonly pathPrefix?: string;
}

const INSTANCE = "instances/default";

interface Launch {
  readonly command: string;
  readonly prefix: readonly string[];
}

/**
 * How to run the `paperclipai` CLI. As root, the embedded Postgres runs as the `postgres` user,
 * which must reach the Postgres binaries in the toolchain cache (often under a 0700 home):
 * bubblewrap shows the server install and Node at world-readable paths under a private /mnt,
 * sharing everything else (network, /tmp, processes) with the host.
 */
function launcher(toolchain: ServerToolchain, asRoot: boolean): Launch {
  const cli = "node_modules/paperclipai/dist/index.js";
  if (!asRoot) {
    return { command: toolchain.node24, prefix: [path.join(toolchain.serverDir, cli)] };
  }
  const nodeDir = path.dirname(path.dirname(toolchain.node24));
  return {
    command: "bwrap",
    prefix: [
      "--dev-bind",
      "/",
      "/",
      "--perms",
      "0755",
      "--tmpfs",
      "/mnt",
      "--ro-bind",
      toolchain.serverDir,
      "/mnt/paperclip-server",
      "--ro-bind",
      nodeDir,
      "/mnt/node",
      "--die-with-parent",
      "--",
      "/mnt/node/bin/node",
      `/mnt/paperclip-server/${cli}`,
    ],
  };
}

function serverEnv(toolchain: ServerToolchain, workDir: string, extra: ServerEnvExtras): NodeJS.ProcessEnv {
  const pathPrefix = extra.pathPrefix === undefined ? "" : `${extra.pathPrefix}:`;
  return {
    ...extra.env,
    PATH: `${pathPrefix}${path.dirname(toolchain.node24)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: path.join(workDir, "user-home"),
    LANG: "C.UTF-8",
    PAPERCLIP_NO_BROWSER: "1",
    PAPERCLIP_OPEN_ON_LISTEN: "false",
    DO_NOT_TRACK: "1",
  };
}

function postgresIds(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

async function onboard(launch: Launch, env: NodeJS.ProcessEnv, home: string, logDir: string): Promise<void> {
  const configPath = path.join(home, INSTANCE, "config.json");
  const onboarding = startGroup(
    launch.command,
    [...launch.prefix, "onboard", "--yes", "--no-install-service", "-d", home],
    { env, logPath: path.join(logDir, "onboard.log") },
  );
  try {
    // `--yes` also starts the server once the config is written; this harness starts it itself.
    await waitFor(
      "onboard writes the config",
      () =>
        onboarding.child.exitCode !== null ||
        (existsSync(configPath) && onboarding.output().includes("Starting Paperclip server"))
          ? true
          : undefined,
      { timeoutMs: 180_000 },
    );
  } finally {
    await onboarding.stop(5_000);
  }
  if (!existsSync(configPath)) {
    throw new Error(`onboard wrote no ${configPath}:\n${onboarding.output().slice(-4000)}`);
  }
}

async function configure(home: string, asRoot: boolean, port: number, postgresPort: number): Promise<void> {
  const configPath = path.join(home, INSTANCE, "config.json");
  const config = JSON.parse(await readFile(configPath, "utf8")) as {
    server: { port: number };
    database: {
      embeddedPostgresPort: number;
      embeddedPostgresDataDir: string;
      backup?: { enabled: boolean };
    };
    telemetry?: { enabled: boolean };
    updates?: { checkEnabled: boolean };
  };
  // Onboard's own start may have begun a Postgres on the default port: it goes first.
  await stopLeftoverPostgres(home, config.database.embeddedPostgresPort);
  config.server.port = port;
  config.database.embeddedPostgresPort = postgresPort;
  if (config.database.backup) config.database.backup.enabled = false;
  if (config.telemetry) config.telemetry.enabled = false;
  if (config.updates) config.updates.checkEnabled = false;
  await writeFile(configPath, JSON.stringify(config, null, 2));
  // Onboard's own start may have begun a cluster; the run below initialises a fresh one.
  const dataDir = config.database.embeddedPostgresDataDir;
  await rm(dataDir, { recursive: true, force: true });
  await mkdir(dataDir, { recursive: true });
  if (asRoot) {
    const ids = postgresIds();
    if (ids === undefined)
      throw new Error("running as root needs a `postgres` user for the embedded Postgres");
    await chown(dataDir, ids.uid, ids.gid);
  }
}

/** Whether `pid` names a live process. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid on the first line of a Postgres pid or lock file, or `undefined`. */
async function pidIn(file: string): Promise<number | undefined> {
  if (!existsSync(file)) return undefined;
  const pid = Number((await readFile(file, "utf8")).split("\n")[0]);
  return Number.isInteger(pid) && pid > 1 ? pid : undefined;
}

/**
 * The shared-memory segments (`/dev/shm/PostgreSQL.*`) the running postmaster has mapped: a
 * Postgres stopped cleanly removes them, one killed mid-way leaves them for good.
 */
async function postgresSharedMemory(home: string): Promise<string[]> {
  const pid = await pidIn(path.join(home, INSTANCE, "db", "postmaster.pid"));
  if (pid === undefined) return [];
  const maps = await readFile(`/proc/${pid}/maps`, "utf8").catch(() => "");
  const segments = maps.match(/\/dev\/shm\/PostgreSQL\.\d+/g) ?? [];
  return [...new Set(segments)];
}

/**
 * Kills a Postgres the server left behind (its pid is the first line of postmaster.pid), waits
 * for it to be gone, then removes the Unix socket and lock it keeps in /tmp for its port: a
 * postmaster killed by the process group's final SIGKILL never removes them itself.
 */
async function stopLeftoverPostgres(home: string, postgresPort: number): Promise<void> {
  const pid = await pidIn(path.join(home, INSTANCE, "db", "postmaster.pid"));
  if (pid !== undefined && alive(pid)) {
    // SIGINT is Postgres's fast shutdown, which removes its shared memory from /dev/shm; a
    // SIGKILLed postmaster leaves it behind.
    process.kill(pid, "SIGINT");
    const exitedByItself = await waitFor(
      "the leftover Postgres exits",
      () => (alive(pid) ? undefined : true),
      {
        timeoutMs: 10_000,
      },
    ).catch(() => false);
    if (!exitedByItself) {
      process.kill(pid, "SIGKILL");
      await waitFor("the leftover Postgres exits after SIGKILL", () => (alive(pid) ? undefined : true), {
        timeoutMs: 10_000,
      });
    }
  }
  const socket = `/tmp/.s.PGSQL.${postgresPort}`;
  const owner = await pidIn(`${socket}.lock`);
  if (owner !== undefined && alive(owner)) return;
  await rm(socket, { force: true });
  await rm(`${socket}.lock`, { force: true });
}

/**
 * A fresh home in `workDir`, `paperclipai onboard --yes --no-install-service -d HOME`, free
 * loopback ports written to its config, `paperclipai run -d HOME`, and `GET /api/health` ok.
 * `extraEnv` reaches the server and what it runs (the registry e2e points its plugin
 * installs, `npm install`, at a loopback registry with `npm_config_registry`).
 */
export async function startPaperclipServer(
  toolchain: ServerToolchain,
  workDir: string,
  logDir: string,
  extras: ServerEnvExtras = {},
): Promise<PaperclipServer> {
  const asRoot = process.getuid?.() === 0;
  const launch = launcher(toolchain, asRoot);
  const env = serverEnv(toolchain, workDir, extras);
  const home = path.join(workDir, "paperclip-home");
  await mkdir(home, { recursive: true });
  await mkdir(env.HOME as string, { recursive: true });
  // The `postgres` user must be able to walk down to its data directory.
  await chmod(workDir, 0o755);
  await onboard(launch, env, home, logDir);
  // A start that fails because another process took one of its ports first is tried again.
  return startOnFreePorts(
    "the Paperclip server",
    ([port, postgresPort]) => startConfigured(launch, env, home, logDir, asRoot, port, postgresPort),
    { count: 2 },
  );
}

async function startConfigured(
  launch: Launch,
  env: NodeJS.ProcessEnv,
  home: string,
  logDir: string,
  asRoot: boolean,
  port: number,
  postgresPort: number,
): Promise<PaperclipServer> {
  await configure(home, asRoot, port, postgresPort);
  const server = startGroup(launch.command, [...launch.prefix, "run", "-d", home], {
    env,
    logPath: path.join(logDir, "server.log"),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    const segments = await postgresSharedMemory(home);
    await server.stop(30_000);
    await stopLeftoverPostgres(home, postgresPort);
    const left = segments.filter((segment) => existsSync(segment));
    if (left.length > 0) {
      await Promise.all(left.map((segment) => rm(segment, { force: true })));
      throw new Error(`the embedded Postgres left its shared memory behind: ${left.join(", ")}`);
    }
  };
  try {
    await waitFor(
      "GET /api/health reports ok",
      async () => {
        try {
          const response = await fetch(`${baseUrl}/api/health`);
          const body = (await response.json()) as { status?: string };
          return response.ok && body.status === "ok" ? true : undefined;
        } catch {
          return undefined;
        }
      },
      { timeoutMs: 240_000, process: server },
    );
  } catch (error) {
    const output = server.output();
    let failure = `${(error as Error).message}\n--- server log ---\n${output.slice(-6000)}`;
    // A stop that fails too is told after the start's failure, which stays the one thrown.
    await stop().catch((stopError: unknown) => {
      failure += `\n--- stopping it failed too ---\n${(stopError as Error).message}`;
    });
    // Its whole log, the cause, says whether a port was taken first (`startOnFreePorts` retries then).
    throw new Error(failure, { cause: output });
  }
  return { baseUrl, home, process: server, stop };
}
