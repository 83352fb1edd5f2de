import { createHash } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { chmod, cp, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";

// A remote provider pack, as the server's native runtime requires one to run OpenCode in a
// sandbox (`PAPERCLIP_RUNNER_REMOTE_PROVIDER_PACK_PATH`; `readRemoteProviderPackManifest` and the
// in-sandbox check of `native-session-executor.js`): `provider-pack.json`, whose payload pins the
// versions and digests every artifact at a fixed path, a Node of its own, the server's OpenCode
// proxy and ACPX sidecar under `dist/cli`, and the pinned packages under `node_modules`.

/** The server's pins (REMOTE_PROVIDER_PACK_PINS): a pack with any other is refused. */
const PINS = {
  nodeMinimum: "24.11.0",
  codex: "0.153.4",
  opencode: "1.18.29",
  acpx: "0.13.1",
  claudeAcp: "0.73.0",
  codexAcp: "1.6.2",
};

/** The ACPX agent profiles the server qualifies (REMOTE_PROVIDER_PACK_PROFILE_DIGESTS). */
const ACPX_PROFILE_DIGESTS = {
  claude: "sha256:9d73d1f0f121fb96cc8badb28c22d5bff02d8582eb2e40360a81c189e1b9422a",
  codex: "sha256:c4538599d1ab767db5dff50934f13bb5ba313a59d9c4a83e993fac4617ea63d3",
};

/** Where the server expects each artifact (REMOTE_PROVIDER_PACK_ARTIFACT_PATHS). */
const ARTIFACT_PATHS = {
  nodeCommand: "node_modules/node/bin/node",
  productionLock: "pnpm-lock.yaml",
  opencodeCommand: "node_modules/.bin/opencode",
  opencodeExecutable: "node_modules/opencode-ai/bin/opencode.exe",
  opencodeProxy: "dist/cli/opencode-app-server-proxy.cjs",
  acpxSidecar: "dist/cli/acpx-runtime-sidecar.cjs",
} as const;

export interface ProviderPackSources {
  /** The toolchain's server install (its `dist/vendor/paperclip-runner/cli` holds the proxy and sidecar). */
  readonly serverDir: string;
  /** A Node of at least 24.11, the pack's own. */
  readonly node: string;
  /** The directory whose `node_modules` holds the pinned ACPX packages (`pack-acpx-packages`). */
  readonly acpxPackages: string;
  /** The OpenCode toolchain's `opencode-ai` package directory (its `package.json` is the pin's). */
  readonly opencodePackage: string;
  /** The pack's OpenCode executable: a script (the e2e's wrapper bound to its model stub). */
  readonly opencodeExecutable: string;
  /** The runner source revision the manifest names (40 hex digits). */
  readonly sourceRevision: string;
}

const sha256 = (bytes: Buffer | string): string =>
  `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const fileDigest = (file: string): string => sha256(readFileSync(file));

/** The server's canonical JSON: object keys sorted, at every depth. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** The server's digest of a directory tree (`sha256DirectoryTree`). */
function treeDigest(root: string): string {
  const hash = createHash("sha256");
  const visit = (directory: string, prefix: string): void => {
    const entries = readdirSync(directory, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) {
        hash.update(`directory\0${relative}\n`);
        visit(absolute, relative);
      } else if (entry.isFile()) hash.update(`file\0${relative}\0${fileDigest(absolute)}\n`);
      else if (entry.isSymbolicLink()) hash.update(`symlink\0${relative}\0${readlinkSync(absolute)}\n`);
      else throw new Error(`unsupported dist entry ${relative}`);
    }
  };
  visit(root, "");
  return `sha256:${hash.digest("hex")}`;
}

/** Writes a provider pack for OpenCode at `root` from `sources`; returns `root`. */
export async function writeProviderPack(root: string, sources: ProviderPackSources): Promise<string> {
  const at = (relative: string): string => path.join(root, relative);
  const cli = path.join(
    sources.serverDir,
    "node_modules/@paperclipai/server/dist/vendor/paperclip-runner/cli",
  );
  await mkdir(at("dist/cli"), { recursive: true });
  for (const name of ["opencode-app-server-proxy.cjs", "acpx-runtime-sidecar.cjs"])
    await cp(path.join(cli, name), at(`dist/cli/${name}`));
  await mkdir(path.dirname(at(ARTIFACT_PATHS.nodeCommand)), { recursive: true });
  await cp(sources.node, at(ARTIFACT_PATHS.nodeCommand));
  await chmod(at(ARTIFACT_PATHS.nodeCommand), 0o755);
  await cp(path.join(sources.acpxPackages, "node_modules"), at("node_modules"), { recursive: true });
  await mkdir(path.dirname(at(ARTIFACT_PATHS.opencodeExecutable)), { recursive: true });
  await cp(path.join(sources.opencodePackage, "package.json"), at("node_modules/opencode-ai/package.json"));
  await cp(sources.opencodeExecutable, at(ARTIFACT_PATHS.opencodeExecutable));
  await chmod(at(ARTIFACT_PATHS.opencodeExecutable), 0o755);
  await mkdir(at("node_modules/.bin"), { recursive: true });
  await symlink("../opencode-ai/bin/opencode.exe", at(ARTIFACT_PATHS.opencodeCommand));
  // The lock of what the pack holds: its packages and their versions (JSON is YAML too).
  await writeFile(
    at(ARTIFACT_PATHS.productionLock),
    `${JSON.stringify({ packages: { "opencode-ai": PINS.opencode, acpx: PINS.acpx, "@agentclientprotocol/claude-agent-acp": PINS.claudeAcp, "@agentclientprotocol/codex-acp": PINS.codexAcp } }, null, 2)}\n`,
  );
  const artifacts = Object.fromEntries(
    Object.entries(ARTIFACT_PATHS).map(([name, relative]) => [
      name,
      { path: relative, sha256: fileDigest(at(relative)) },
    ]),
  ) as Record<keyof typeof ARTIFACT_PATHS, { path: string; sha256: string }>;
  const distDigest = treeDigest(at("dist"));
  const payload = {
    pins: PINS,
    acpxProfileDigests: ACPX_PROFILE_DIGESTS,
    target: { platform: process.platform, architecture: process.arch },
    runnerSourceRevision: sources.sourceRevision,
    distDigest,
    artifacts,
    bridgeDigest: sha256(`${artifacts.opencodeProxy.sha256}\n${artifacts.acpxSidecar.sha256}\n${distDigest}`),
  };
  const manifest = {
    schema: "paperclip-runner/remote-provider-pack/v1",
    payload,
    digest: sha256(canonicalJson(payload)),
  };
  await writeFile(at("provider-pack.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return root;
}
