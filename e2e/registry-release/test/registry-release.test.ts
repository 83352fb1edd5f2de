import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type EmulatorProcess, startEmulator } from "@paperclipai/paperclip-host-e2e/emulator-process";
import { HostApi } from "@paperclipai/paperclip-host-e2e/host-api";
import { type PaperclipServer, startPaperclipServer } from "@paperclipai/paperclip-host-e2e/paperclip-server";
import { installPlugin, probeDraftConfig } from "@paperclipai/paperclip-host-e2e/plugin-steps";
import { stopEach } from "@paperclipai/paperclip-host-e2e/process-group";
import { publishablePackages, repoRoot } from "@paperclipai/repo-checks/workspace-packages";
import { tempDirForFile, toolchainCache } from "@paperclipai/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerApp, installConsumerApp } from "../src/consumer-app.js";
import { type LocalRegistry, startLocalRegistry } from "../src/local-registry.js";
import { NODE_MAJORS, nodeBinary } from "../src/node-matrix.js";
import { npm } from "../src/npm.js";
import { type Released, releaseTo } from "../src/release.js";
import { throwawayCopy } from "../src/throwaway-repo.js";
import { seedUpstream, UPSTREAM_VERSION } from "../src/upstream-seed.js";

// Removed after the afterAll below stopped what runs in it (vitest runs afterAll hooks in reverse).
const workDir = tempDirForFile("paperclip-registry-release-");
let logDir = "";
let node24 = "";
let registry: LocalRegistry | undefined;
let released: Released[] = [];
let server: PaperclipServer | undefined;
let emulator: EmulatorProcess | undefined;
let serverHome = "";
const consumers = new Map<number, ConsumerApp>();
/** The Node whose consumer app installs TypeScript and type-checks: the matrix's floor. */
const TYPESCRIPT_NODE = Math.min(...NODE_MAJORS);
const WHO = "the registry release e2e";
/** What a release run in place would change: manifests, changelogs, changesets, git tags. */
const releaseFootprint = (): string =>
  JSON.stringify([
    ...publishablePackages().flatMap(({ dir }) =>
      ["package.json", "CHANGELOG.md"].map((file) => readFileSync(path.join(repoRoot, dir, file), "utf8")),
    ),
    readdirSync(path.join(repoRoot, ".changeset")).sort(),
    execFileSync("git", ["tag", "--list"], { cwd: repoRoot, encoding: "utf8" }),
  ]);
const footprintBefore = releaseFootprint();

const view = async (spec: string, field: string): Promise<unknown> =>
  JSON.parse(await npm(["view", spec, field, "--json"], { env: { ...process.env, ...registry?.env } }));

/** Runs one phase of the set-up and says how long it took (the suite's time is budgeted). */
async function phase<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`registry e2e: ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/** The real server on a fresh home, its plugin installs (`npm install`) pointed at the registry. */
async function startServer(): Promise<PaperclipServer> {
  // The server's embedded Postgres runs as the postgres user, who must reach its home.
  await chmod(workDir, 0o755);
  const serverDir = path.join(workDir, "server");
  await mkdir(serverDir);
  serverHome = path.join(serverDir, "user-home");
  return startPaperclipServer({ node24, serverDir: toolchainCache(WHO, "server") }, serverDir, logDir, {
    env: { ...registry?.env, npm_config_cache: path.join(serverDir, "npm-cache") },
  });
}

// The release first; then the consumer apps (one install per Node) and the server start together.
beforeAll(async () => {
  logDir = path.join(workDir, "logs");
  await mkdir(logDir);
  node24 = await nodeBinary(24);
  const uplink = (await npm(["config", "get", "registry"])).trim();
  const verdaccio = toolchainCache(WHO, "verdaccio");
  const started = await phase("registry started", () =>
    startLocalRegistry(node24, verdaccio, workDir, uplink),
  );
  registry = started;
  await phase("upstream seeded", () => seedUpstream(started, workDir, uplink));
  const repo = path.join(workDir, "repo");
  await phase("work tree copied", () => throwawayCopy(repoRoot, repo));
  released = await phase("version-packages and release", () => releaseTo(repo, started, logDir));
  const installs = NODE_MAJORS.map(async (major) => {
    const dir = path.join(workDir, `consumer-node${major}`);
    consumers.set(
      major,
      await installConsumerApp(dir, await nodeBinary(major), released, registry as LocalRegistry, {
        withTypescript: major === TYPESCRIPT_NODE,
      }),
    );
  });
  const starting = startServer().then((started) => {
    server = started;
  });
  const outcomes = await phase("consumer installs and server start", () =>
    Promise.allSettled([...installs, starting]),
  );
  const failure = outcomes.find((outcome) => outcome.status === "rejected");
  if (failure) throw failure.reason;
}, 1_200_000);

afterEach(async (context) => {
  if (context.task.result?.state !== "fail") return;
  const tail = async (file: string) => (await readFile(file, "utf8").catch(() => "")).slice(-4000);
  console.error(
    [
      `--- registry log ---\n${registry?.process.output().slice(-4000) ?? ""}`,
      `--- release log ---\n${await tail(path.join(logDir, "release.log"))}`,
      `--- server log ---\n${server?.process.output().slice(-6000) ?? "(not started)"}`,
      `--- emulator log ---\n${emulator?.process.output().slice(-3000) ?? "(not started)"}`,
    ].join("\n"),
  );
});

afterAll(async () => {
  await stopEach(
    () => server?.stop(),
    () => emulator?.stop(),
    () => registry?.stop(),
  );
}, 180_000);

describe("a release to a real npm registry on loopback (changeset version, pnpm release)", () => {
  it("publishes every package that is not private, at the version its changesets give it", async () => {
    expect(released.map((pkg) => pkg.name).sort()).toEqual(
      publishablePackages()
        .map((pkg) => pkg.manifest.name)
        .sort(),
    );
    const published = await Promise.all(
      released.map(async (pkg) => ({
        pkg,
        version: await view(`${pkg.name}@${pkg.version}`, "version"),
        tags: (await view(pkg.name, "dist-tags")) as Record<string, string>,
      })),
    );
    for (const { pkg, version, tags } of published) {
      expect(pkg.version, pkg.name).not.toBe("0.0.0");
      expect(version).toBe(pkg.version);
      expect(tags[pkg.tag], `${pkg.name} dist-tag ${pkg.tag}`).toBe(pkg.version);
      expect(Object.keys(tags), `${pkg.name}: the staging tag is gone`).not.toContain("publishing");
    }
  });

  it("leaves upstream's latest of @paperclipai/adapter-utils untouched and puts ours under sandbox", async () => {
    const ours = released.find((pkg) => pkg.name === "@paperclipai/adapter-utils");
    expect(ours?.tag).toBe("sandbox");
    expect(await view("@paperclipai/adapter-utils", "dist-tags")).toEqual({
      latest: UPSTREAM_VERSION,
      sandbox: ours?.version,
    });
    expect(await view("@paperclipai/adapter-utils", "version")).toBe(UPSTREAM_VERSION);
  });

  it("releases from a throwaway copy: manifests, changelogs, changesets and tags here are as they were", () => {
    expect(releaseFootprint()).toBe(footprintBefore);
  });
});

describe.each(NODE_MAJORS)("a fresh consumer app on Node %i, installing from that registry only", (major) => {
  let app: ConsumerApp;

  beforeAll(() => {
    app = consumers.get(major) as ConsumerApp;
  });

  it("gets the released builds (ours of @paperclipai/adapter-utils through its dist-tag)", () => {
    for (const pkg of released) expect(app.installed.get(pkg.name)?.version, pkg.name).toBe(pkg.version);
    expect(execFileSync(app.node, ["--version"], { encoding: "utf8" })).toMatch(new RegExp(`^v${major}\\.`));
  });

  it.each(["probe.mjs", "probe.cjs"])(
    "loads every exports entry and uses two packages together from %s",
    async (file) => {
      const result = JSON.parse(await app.runFile(file)) as {
        counts: Record<string, number>;
        scope: string;
        refused: string;
      };
      expect(Object.keys(result.counts).length).toBeGreaterThanOrEqual(released.length);
      for (const [specifier, count] of Object.entries(result.counts))
        expect(count, specifier).toBeGreaterThan(0);
      expect(result.scope).toBe("deny");
      expect(result.refused).toMatch(/^ERR_SANDBOX_/);
    },
  );

  it("runs every bin with --help", async () => {
    const bins = [...app.installed.values()].flatMap((manifest) => Object.keys(manifest.bin ?? {}));
    expect(bins.length).toBeGreaterThanOrEqual(4);
    for (const bin of bins) expect(await app.runBin(bin, ["--help"]), bin).toMatch(/usage/i);
  });
});

// tsc's answer does not depend on the Node running it (the same tarballs, typescript and
// @types/node@20 in every app), so one app type-checks: the floor's. It cost each Node's app
// about 40 s of a 2-core machine.
describe(`a TypeScript consumer on Node ${TYPESCRIPT_NODE}, installing from that registry only`, () => {
  // The two compilers run side by side: each is one process, and the machine has two cores.
  it("type-checks with moduleResolution node16 (.mts and .cts) and bundler", async () => {
    const app = consumers.get(TYPESCRIPT_NODE) as ConsumerApp;
    const outputs = await Promise.all(["tsconfig.node16.json", "tsconfig.bundler.json"].map(app.typecheck));
    expect(outputs).toEqual(["", ""]);
  });
});

describe("the real Paperclip server (Node 24) installs the CreateOS plugin by name from that registry", () => {
  let api: HostApi;

  beforeAll(async () => {
    const app = consumers.get(24) as ConsumerApp;
    const emulatorBin = app.installed.get("@paperclipai/createos-emulator")?.bin?.["createos-emulator"] ?? "";
    emulator = await startEmulator(node24, logDir, {
      binPath: path.join(app.dir, "node_modules/@paperclipai/createos-emulator", emulatorBin),
    });
    api = new HostApi((server as PaperclipServer).baseUrl);
  }, 120_000);

  it("installs @paperclipai/plugin-createos by package name and reaches ready", async () => {
    const ours = released.find((pkg) => pkg.name === "@paperclipai/plugin-createos");
    const plugin = await installPlugin(api, { packageName: "@paperclipai/plugin-createos" });
    expect(plugin).toMatchObject({ pluginKey: "paperclip.createos-sandbox-provider", status: "ready" });
    const pluginsDir = path.join(serverHome, ".paperclip", "plugins");
    const manifest = JSON.parse(
      await readFile(path.join(pluginsDir, "node_modules/@paperclipai/plugin-createos/package.json"), "utf8"),
    ) as { version: string };
    expect(manifest.version).toBe(ours?.version);
    const lock = JSON.parse(await readFile(path.join(pluginsDir, "package-lock.json"), "utf8")) as {
      packages: Record<string, { resolved?: string }>;
    };
    expect(lock.packages["node_modules/@paperclipai/plugin-createos"]?.resolved).toMatch(
      new RegExp(`^${(registry as LocalRegistry).url}/`),
    );
  });

  it("runs the plugin's probe through the server (create a sandbox, /bin/echo, delete)", async () => {
    const e = emulator as EmulatorProcess;
    const company = await api.post<{ id: string }>("/companies", { name: "Registry release E2E" });
    const probe = await probeDraftConfig(api, company.id, e);
    expect(probe).toMatchObject({
      ok: true,
      summary: "CreateOS sandbox creation and command execution succeeded.",
    });
    expect(await e.sandboxDirectories()).toEqual([]);
  });
});
