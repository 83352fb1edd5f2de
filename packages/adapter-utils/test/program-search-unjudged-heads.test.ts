import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import { spawnTarget } from "./attack-support.js";
import { cleanupAll, onCleanup, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * `PATH` candidates whose heads are hard to judge: the interpreter `/proc/self/mem` (its read
 * fails with EIO; execve refuses it, EACCES, and the search goes on), an ELF whose offsets lie
 * past 2^53 (the kernel answers ENOEXEC or EIO), a `#!` name longer than the kernel's 256-byte
 * buffer (ENOEXEC), a `#!` loop (ELOOP), a loader name too long (ENAMETOOLONG). Behind either
 * bridge the exec shim starts the program (after checking the binds) and searches as glibc's
 * execvp does: both bridges give execvp's outcome. The Node bridge's own search, for a sandbox
 * without a usable shim, is unit-tested (execvp-path.test.ts, exec-interpreter.test.ts).
 */

/** 2^60, past what a JavaScript number holds exactly (and so what Node reads at). */
const FAR = 1n << 60n;

/**
 * A 64-bit ELF header that is also a script /bin/sh runs quietly: its first line ends, in the
 * header's padding, with ` 2>&-<<x`, which silences the unknown command `\x7fELF…` and makes
 * the rest of the header a here-document. `phoff` and `phentsize`/`phnum` (one entry) as given.
 */
function elfHeader(phoff: bigint): Buffer {
  const header = Buffer.alloc(64);
  header.write("\x7fELF\x02\x01\x01 2>&-<<x\n", 0, "latin1");
  header.writeUInt16LE(2, 0x10); // ET_EXEC
  header.writeUInt16LE(0x3e, 0x12); // x86-64
  header.writeUInt32LE(1, 0x14);
  header.writeBigUInt64LE(phoff, 0x20);
  header.writeUInt16LE(64, 0x34);
  header.writeUInt16LE(56, 0x36);
  header.writeUInt16LE(1, 0x38);
  return header;
}

const SCRIPT_TAIL = "\nx\necho ran-by-sh\n";

/** An ELF whose program header table lies at 2^60: the kernel cannot read it (ENOEXEC). */
function elfWithFarProgramHeaders(): Buffer {
  return Buffer.concat([elfHeader(FAR), Buffer.from(SCRIPT_TAIL)]);
}

/** An ELF whose `PT_INTERP` names its loader at 2^60: the kernel cannot read that name (EIO). */
function elfWithFarInterpreter(): Buffer {
  const entry = Buffer.alloc(56);
  entry.writeUInt32LE(3, 0); // PT_INTERP
  entry.writeBigUInt64LE(FAR, 0x08);
  entry.writeBigUInt64LE(16n, 0x20);
  return Buffer.concat([elfHeader(64n), entry, Buffer.from(SCRIPT_TAIL)]);
}

/** An ELF whose loader is `name`, stored right after its one program header. */
function elfWithLoader(name: string): Buffer {
  const entry = Buffer.alloc(56);
  entry.writeUInt32LE(3, 0); // PT_INTERP
  entry.writeBigUInt64LE(120n, 0x08);
  entry.writeBigUInt64LE(BigInt(name.length + 1), 0x20);
  return Buffer.concat([elfHeader(64n), entry, Buffer.from(`${name}\0`, "latin1")]);
}

const CANDIDATES: Record<string, string | Buffer> = {
  mem: "#!/proc/self/mem\n",
  phoff: elfWithFarProgramHeaders(),
  interp: elfWithFarInterpreter(),
  // A name that runs past the kernel's 256 bytes, no space, tab or newline in them.
  long: `#!/${"x".repeat(300)}\necho ran-by-sh\n`,
  ok: "#!/bin/sh\necho ok-tool\n",
  // Its `#!` names a link to itself (made beside it): ELOOP.
  loop: "",
  // A loader whose name is one 300-byte component: ENAMETOOLONG.
  longname: elfWithLoader(`/${"n".repeat(300)}`),
};

async function runWith(bridge: "native" | "node", ws: string, names: string[]) {
  const target = await buildLocalProcessSandboxSpawnTarget({
    executable: "tool",
    args: [],
    cwd: ws,
    options: {
      workspaceDir: ws,
      filesystemScope: "workspace",
      networkScope: "allowlist",
      networkAllowlist: ["127.0.0.1:1"],
      networkBridge: bridge,
    },
  });
  onCleanup(() => target.cleanup?.() ?? Promise.resolve());
  const PATH = names.map((name) => path.join(ws, name)).join(":");
  const result = await spawnTarget(target, { PATH });
  return { code: result.code, stdout: result.stdout, stderr: result.stderr };
}

type Outcome = { code: number; stdout: string; stderr: string };

const cannotStart = (why: string): Outcome => ({
  code: 126,
  stdout: "",
  stderr: `paperclip-sandbox: cannot start tool: ${why}\n`,
});

/** The outcome behind either bridge (the shim's execvp), for `PATH` made of these candidates. */
const CASES: [string[], Outcome][] = [
  // execve refuses /proc/self/mem (mode 0600) with EACCES: the search goes on.
  [["mem", "ok"], { code: 0, stdout: "ok-tool\n", stderr: "" }],
  [["long", "ok"], { code: 0, stdout: "ran-by-sh\n", stderr: "" }],
  // execvp stops at these errors.
  [["loop", "ok"], cannotStart("Too many levels of symbolic links")],
  [["longname", "ok"], cannotStart("File name too long")],
  [["interp", "ok"], cannotStart("Input/output error")],
  // ENOEXEC: glibc's execvp runs the file with /bin/sh.
  [["phoff", "ok"], { code: 0, stdout: "ran-by-sh\n", stderr: "" }],
];

/** A workspace with a directory per candidate, each holding its `tool`. */
async function workspaceWithCandidates(): Promise<string> {
  const ws = scratchDir("pc-sbx-heads-");
  for (const [name, content] of Object.entries(CANDIDATES)) {
    await mkdir(path.join(ws, name));
    await writeFile(path.join(ws, name, "tool"), content, { mode: 0o755 });
  }
  await symlink("self", path.join(ws, "loop", "self"));
  await writeFile(path.join(ws, "loop", "tool"), `#!${path.join(ws, "loop", "self")}\n`, { mode: 0o755 });
  return ws;
}

describe("a PATH candidate whose head is hard to judge", () => {
  it.each(CASES)(
    "is left to the exec: either bridge takes the candidate execvp does (%s)",
    async (names, outcome) => {
      const ws = await workspaceWithCandidates();
      expect(await runWith("native", ws, names), "native bridge").toEqual(outcome);
      expect(await runWith("node", ws, names), "Node bridge").toEqual(outcome);
    },
    60_000,
  );
});
