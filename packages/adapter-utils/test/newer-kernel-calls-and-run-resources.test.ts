import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { buildStaticFixture, runSandboxed } from "./attack-support.js";
import { cleanupAll, scratchDir } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

type Scope = Omit<LocalProcessSandboxOptions, "workspaceDir">;

describe("the kernel's newer interfaces, from inside", () => {
  // The new mount API, clone3 with a flag the filter cannot read, and pidfds of pid 1. The
  // mount calls are denied by the filter, but for open_tree_attr (Linux 6.15), which the
  // kernel refuses for want of CAP_SYS_ADMIN (one more filter entry would cost every
  // openat a comparison: sandbox-filter.test.ts bounds the depth); clone3 is ENOSYS, so glibc falls
  // back to clone, whose flags the filter reads; a pidfd of pid 1 is allowed, but a signal
  // through it is dropped (pid 1 has no handler), its memory cannot be reaped while it
  // lives, and it enters no namespace. The rest of what such a probe calls (memfd_secret,
  // landlock, listmount) reaches nothing beyond the program's own processes and mounts.
  const HELD = {
    fsopen: "EPERM",
    fspick: "EPERM",
    "open_tree-clone": "EPERM",
    "open_tree_attr-clone": "EPERM",
    move_mount: "EPERM",
    mount_setattr: "EPERM",
    "clone3-newuser": "ENOSYS",
    "pidfd_open-1": "ok",
    "process_mrelease-1": "EINVAL",
    "setns-1": "EPERM",
    kcmp: "EPERM",
    "prctl-PR_SET_MM": "EPERM",
    "pid1-after-signals": "alive",
  };

  it("mount API, clone3 and pid 1's pidfd lead nowhere, in every scope", async () => {
    const ws = scratchDir();
    const binary = await buildStaticFixture("newer-kernel-calls", ws);
    for (const [name, scope] of Object.entries(SCOPE_MATRIX)) {
      const stdout = await runSandboxed(ws, scope as Scope, binary, []);
      const seen = Object.fromEntries(
        stdout
          .trim()
          .split("\n")
          .map((line) => line.split(" ")),
      );
      expect(seen, name).toMatchObject(HELD);
    }
  }, 120_000);
});

describe("tmpfsSizeBytes", () => {
  // Every writable tmpfs is memory: without a cap a program fills it until the host runs
  // out (security.md, "Not covered either: memory"). The option caps each one.
  const WRITE_3_MIB = `
    const fs = require("node:fs");
    const out = {};
    for (const dir of JSON.parse(process.argv[1])) {
      try { fs.writeFileSync(dir + "/fill", Buffer.alloc(3 << 20)); out[dir] = "wrote"; }
      catch (error) { out[dir] = error.code; }
    }
    console.log(JSON.stringify(out));`;
  const PLACES = {
    workspace: ["/tmp", "/"],
    workspaceDeny: ["/tmp", "/"],
    networkOnlyDeny: ["/tmp", "/run"],
    networkOnlyAllowlist: ["/tmp", "/run"],
  } as const;

  it("caps the private /tmp and the other writable tmpfs of every scope; unset, they take what is written", async () => {
    const ws = scratchDir();
    for (const [name, scope] of Object.entries(SCOPE_MATRIX)) {
      const places = PLACES[name as keyof typeof PLACES];
      const args = ["-e", WRITE_3_MIB, JSON.stringify(places)];
      const capped = JSON.parse(
        await runSandboxed(ws, { ...scope, tmpfsSizeBytes: 1 << 20 } as Scope, process.execPath, args),
      );
      const uncapped = JSON.parse(await runSandboxed(ws, scope as Scope, process.execPath, args));
      expect(capped, name).toEqual(Object.fromEntries(places.map((place) => [place, "ENOSPC"])));
      expect(uncapped, name).toEqual(Object.fromEntries(places.map((place) => [place, "wrote"])));
    }
  }, 120_000);

  it("refuses a size bwrap or tmpfs would read as something else, before anything starts", async () => {
    const ws = scratchDir();
    for (const bad of [0, -1, 1.5, 4095, Number.NaN, Number.POSITIVE_INFINITY, "64m", 2 ** 53]) {
      await expect(
        runSandboxed(ws, { filesystemScope: "workspace", tmpfsSizeBytes: bad as number }, "/bin/true", []),
        String(bad),
      ).rejects.toMatchObject({ code: "ERR_SANDBOX_TMPFS_SIZE" });
    }
  });
});
