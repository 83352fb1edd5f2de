import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type GroupProcess, startGroup, waitFor } from "@paperclipai/paperclip-host-e2e/process-group";
import { startOnFreePorts } from "@paperclipai/test-support/ports";

/** A Verdaccio on loopback with its storage in a temp dir, and the npm settings that reach it. */
export interface LocalRegistry {
  readonly url: string;
  readonly process: GroupProcess;
  /** npm and pnpm settings for the loopback registry: its URL, a token, a cache of their own. */
  readonly env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

// Our names (and the upstream packages seeded under the same scope) come only from this
// registry's own storage: the scope has no uplink. Every other package (tar, zod, ws…) is
// fetched through it from the registry npm is configured with, as a company mirror would.
function config(storage: string, htpasswd: string, uplink: string): string {
  return `storage: ${JSON.stringify(storage)}
auth:
  htpasswd:
    file: ${JSON.stringify(htpasswd)}
    max_users: 1
uplinks:
  upstream:
    url: ${JSON.stringify(uplink)}
    timeout: 60s
packages:
  "@paperclipai/*":
    access: $all
    publish: $authenticated
  "**":
    access: $all
    publish: $authenticated
    proxy: upstream
max_body_size: 200mb
log: { type: stdout, format: pretty, level: warn }
`;
}

/** Creates the registry's one user (the releaser) and returns its token. */
async function createReleaser(url: string): Promise<string> {
  const response = await fetch(`${url}/-/user/org.couchdb.user:releaser`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "releaser", password: `release-${process.pid}-${Date.now()}` }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || body.token === undefined) {
    throw new Error(`the registry refused the releaser: HTTP ${response.status} ${body.error ?? ""}`);
  }
  return body.token;
}

/**
 * Starts `verdaccio` (from the toolchain cache, on `node`, Node 22 or newer) in `workDir`,
 * proxying packages outside our scope to `uplink`.
 */
export async function startLocalRegistry(
  node: string,
  verdaccioDir: string,
  workDir: string,
  uplink: string,
): Promise<LocalRegistry> {
  const dir = path.join(workDir, "registry");
  await mkdir(path.join(dir, "storage"), { recursive: true });
  const configPath = path.join(dir, "config.yaml");
  await writeFile(configPath, config(path.join(dir, "storage"), path.join(dir, "htpasswd"), uplink));
  // A start that fails because another process took its port first is tried again.
  return startOnFreePorts("the local registry", ([port]) =>
    startOnPort(node, verdaccioDir, dir, configPath, port),
  );
}

async function startOnPort(
  node: string,
  verdaccioDir: string,
  dir: string,
  configPath: string,
  port: number,
): Promise<LocalRegistry> {
  const url = `http://127.0.0.1:${port}`;
  const bin = path.join(verdaccioDir, "node_modules", "verdaccio", "bin", "verdaccio");
  const registry = startGroup(node, [bin, "--config", configPath, "--listen", `127.0.0.1:${port}`], {
    logPath: path.join(dir, "verdaccio.log"),
  });
  try {
    await waitFor(
      "the registry answers /-/ping",
      async () => ((await fetch(`${url}/-/ping`).catch(() => undefined))?.ok ? true : undefined),
      { timeoutMs: 60_000, process: registry },
    );
    const token = await createReleaser(url);
    const userconfig = path.join(dir, "npmrc");
    await writeFile(userconfig, `registry=${url}/\n//127.0.0.1:${port}/:_authToken=${token}\n`, {
      mode: 0o600,
    });
    const env: NodeJS.ProcessEnv = {
      npm_config_registry: `${url}/`,
      npm_config_userconfig: userconfig,
      npm_config_cache: path.join(dir, "npm-cache"),
      npm_config_update_notifier: "false",
    };
    return { url, process: registry, env, stop: () => registry.stop(10_000) };
  } catch (error) {
    await registry.stop(5_000);
    throw new Error(`${(error as Error).message}\n--- verdaccio log ---\n${registry.output().slice(-4000)}`);
  }
}
