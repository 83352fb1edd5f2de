import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import {
  bindRepoView,
  builtEntry,
  canaryServer,
  cleanupAll,
  devWithShmIn,
  inPrivateMountNamespace,
  viaRepoView,
} from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

const uid = process.getuid?.() ?? 0;

/**
 * Runs in the sandbox, its workspace the host's `/run`: moves the directory above a private
 * socket root (`spec.base`) aside with the root's mask in it, makes an empty one in its place, and waits there for the socket of a run that
 * starts after; then asks that run's proxy for the canary. Prints what it got.
 */
const ATTACK = `
const fs = require("node:fs");
const net = require("node:net");
const spec = JSON.parse(process.argv[1]);
const base = spec.base;
const finish = (line) => { console.log(line); fs.writeFileSync("/run/attack-done", ""); };
function socketIn(root) {
  try {
    for (const dir of fs.readdirSync(root)) {
      const candidate = root + "/" + dir + "/proxy.sock";
      if (fs.existsSync(candidate)) return candidate;
    }
  } catch {}
  return null;
}
function ask(socketPath) {
  const socket = net.connect(socketPath, () =>
    socket.end("GET http://127.0.0.1:" + spec.canaryPort + "/ HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n"));
  let answer = "";
  socket.setEncoding("latin1");
  socket.on("data", (chunk) => { answer += chunk; });
  socket.on("error", (error) => finish("refused " + error.code));
  socket.on("close", () => { if (answer) finish("reached " + answer.split("\\r\\n")[0]); });
}
function wait() {
  const found = socketIn(base + "/" + spec.rootName);
  if (found) ask(found);
  else setTimeout(wait, 20);
}
try {
  fs.renameSync(base, base + ".old");
  fs.mkdirSync(base);
  fs.chmodSync(base, 0o1777);
  fs.writeFileSync("/run/attack-ready", "");
  wait();
} catch (error) {
  finish("held " + error.code);
}`;

/**
 * A later allowlist run of the same uid, in a process of its own: holds its proxy until the
 * attack is over, or its parent is gone (a test that timed out killed it), or a minute passed,
 * so a failing test leaves no process behind.
 */
const LATER_RUN = `
const fs = await import("node:fs");
const parent = process.ppid;
const deadline = Date.now() + 60_000;
const waiting = () => !fs.existsSync("/run/attack-done") && process.ppid === parent && Date.now() < deadline;
const sandbox = await import(process.env.ENTRY);
const target = await sandbox.buildLocalProcessSandboxSpawnTarget({
  executable: "/bin/true", args: [], cwd: "/run/victim",
  options: { workspaceDir: "/run/victim", networkScope: "allowlist", networkAllowlist: ["127.0.0.1:" + process.env.CANARY_PORT] },
});
while (waiting()) await new Promise((resolve) => setTimeout(resolve, 20));
await target.cleanup();`;

/** Per scope: starts the attack, starts the later run once the swap is made, then puts the base back. */
const HOST = `
const fs = await import("node:fs");
const { execFile } = await import("node:child_process");
const sandbox = await import(process.env.ENTRY);
const spec = JSON.parse(process.env.SPEC);
const out = {};
for (const [name, scope] of Object.entries(spec.scopes)) {
  for (const file of ["/run/attack-ready", "/run/attack-done"]) fs.rmSync(file, { force: true });
  let ended = false;
  const run = sandbox.runChildProcess(name, process.execPath, ["-e", spec.attack, JSON.stringify(spec)], {
    cwd: "/run", env: {}, timeoutSec: 30, graceSec: 1, onLog: async () => {},
    localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: "/run", ...scope },
  }).finally(() => { ended = true; });
  while (!ended && !fs.existsSync("/run/attack-ready")) await new Promise((resolve) => setTimeout(resolve, 20));
  const later = ended ? null : new Promise((resolve) =>
    execFile(process.execPath, ["--input-type=module", "-e", spec.laterRun], (error, _stdout, stderr) => resolve(error ? stderr : "")));
  const result = await run;
  fs.writeFileSync("/run/attack-done", "");
  const laterFailure = later && (await later);
  out[name] = result.stdout + result.stderr + (laterFailure || "");
  if (fs.existsSync(spec.base + ".old")) {
    fs.rmSync(spec.base, { recursive: true, force: true });
    fs.renameSync(spec.base + ".old", spec.base);
  }
}
console.log(JSON.stringify(out));`;

/** Host layouts in which a root's base is a plain directory under `/run`, made in a private mount namespace. */
const LAYOUTS = [
  {
    name: "/dev/shm links to /run/shm",
    base: "/run/shm",
    setup: [...devWithShmIn("/run")],
  },
  {
    // The roots before it unusable, so the last one, /run/user/<uid>/…, serves every run.
    name: `/dev/shm and /tmp are read-only and /run/user/${uid} is a plain directory`,
    base: `/run/user/${uid}`,
    setup: [
      `mkdir -p -m 0700 /run/user/${uid} && mkdir -m 1777 /run/user/tmp`,
      "mount -t tmpfs -o ro pc-test-shm /dev/shm",
      "mount -t tmpfs -o ro pc-test-tmp /tmp",
    ],
  },
];

/**
 * The private socket roots lie on fixed paths, and a mask over a root a writable bind shows
 * does not keep the directories above it in place: Linux renames a directory that merely holds
 * a mount point. A root runner's program given the host's `/run` writable moved the root's
 * base aside (the mask went with it) and made an empty one: every later run of the uid then
 * made its socket root there, with its proxy socket (and the private copies of the native
 * binaries the host executes), all in the program's sight.
 */
describe.each(LAYOUTS)("a workspace /run on a host where $name", ({ base, setup }) => {
  it("cannot move the directory above the socket root for a later run to use", async () => {
    const canary = await canaryServer();
    const spec = {
      attack: ATTACK,
      laterRun: LATER_RUN,
      base,
      rootName: `paperclip-sandbox-sockets-${uid}`,
      canaryPort: canary.port,
      scopes: { networkOnlyDeny: SCOPE_MATRIX.networkOnlyDeny, workspaceDeny: SCOPE_MATRIX.workspaceDeny },
    };
    const result = await inPrivateMountNamespace(
      [
        bindRepoView,
        "mount -t tmpfs tmpfs /run",
        "mkdir -p /run/victim",
        ...setup,
        `exec ${shellQuote(process.execPath)} --input-type=module -e "$HOST"`,
      ].join(" && "),
      {
        PATH: process.env.PATH,
        TMPDIR: "/run/user/tmp",
        HOST,
        ENTRY: viaRepoView(builtEntry),
        CANARY_PORT: String(canary.port),
        SPEC: JSON.stringify(spec),
      },
    );
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      networkOnlyDeny: "held EBUSY\n",
      workspaceDeny: "held EBUSY\n",
    });
    expect(canary.hits).toEqual([]);
  }, 120_000);
});
