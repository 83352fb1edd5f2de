/**
 * A sync out's `exclude` keeps what it names on the host out of the sandbox's reach: an excluded
 * path (`.git/hooks`, where a planted script would run on the user's next commit) is never
 * written, however the sandbox's `tar` spells the entry. Here the sandbox's `tar` is a script
 * first on the emulator's `PATH` that serves a crafted archive, spelling excluded paths with `.`
 * segments and doubled slashes, which tar resolves to the excluded path itself.
 */

import { lstat, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CreateosEmulator } from "@paperclipai/createos-emulator";
import type { PluginEnvironmentLease } from "@paperclipai/plugin-sdk";
import { tempDirForFile, tempDirForTest } from "@paperclipai/test-support";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator } from "./support/emulator-fixture.js";
import type { PluginUnderTest } from "./support/plugin-harness.js";
import { pluginUnderTest } from "./support/plugin-under-test.js";
import { tarArchive, tarEntry } from "./support/tar-entries.js";

// Before the afterAll below, so they are removed after the emulator closed (hooks run in reverse).
const tools = tempDirForFile("createos-exclude-tools-");
const host = tempDirForFile("createos-exclude-host-");
const pathBefore = process.env.PATH;

// The sandbox's own `tar` (the emulator runs its commands with this process's `PATH`): with a
// planted archive it writes that as the pack (its third argument), without one it is the real tar.
const HOSTILE_TAR = `#!/bin/sh
if [ -e "$(dirname "$0")/archive" ]; then cat "$(dirname "$0")/archive" > "$3"; exit 0; fi
exec /usr/bin/tar "$@"
`;

let emulator: CreateosEmulator;
let t: PluginUnderTest;
let lease: PluginEnvironmentLease;

beforeAll(async () => {
  await writeFile(join(tools, "tar"), HOSTILE_TAR, { mode: 0o755 });
  process.env.PATH = `${tools}:${pathBefore ?? "/usr/bin:/bin"}`;
  emulator = await startTestEmulator();
  t = await pluginUnderTest(emulator);
  lease = await t.harness.acquireLease({ ...t.base, runId: "exclude-spelling" });
  const workspace = emulator.sandboxes().find((s) => s.id === lease.providerLeaseId)!.workspaceDir;
  await mkdir(join(workspace, "tree"), { recursive: true });
});

afterAll(async () => {
  // First, and whatever the closing does: the later files of this worker run tar too.
  if (pathBefore === undefined) delete process.env.PATH;
  else process.env.PATH = pathBefore;
  await emulator.close();
});

afterEach(async () => {
  await rm(join(tools, "archive"), { force: true });
});

/** Every path below `dir`, relative to it, directories included. */
async function treeOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.sort();
}

describe("a sync out whose sandbox spells excluded paths its own way", () => {
  it.each([
    ["a . segment", ".git/./hooks/pre-commit"],
    ["a doubled slash", ".git//hooks/pre-commit"],
    ["a doubled slash after the root", ".//.git/hooks/pre-commit"],
  ])("never writes an excluded path spelt with %s", async (_name, spelt) => {
    const target = join(tempDirForTest("createos-exclude-scene-", { base: host }), "target");
    await writeFile(
      join(tools, "archive"),
      tarArchive(
        tarEntry({ path: "./", type: "Directory", mode: 0o755 }),
        tarEntry({ path: "./.git", type: "Directory", mode: 0o755 }),
        tarEntry({ path: "./.git/config" }, "[core]\n"),
        tarEntry({ path: spelt, mode: 0o755 }, "#!/bin/sh\necho planted\n"),
      ),
    );
    await t.sync.out({
      ...t.lease(lease),
      operations: [
        {
          operationId: "exclude-spelling",
          files: [
            {
              sourcePath: "/paperclip-workspace/tree",
              targetPath: target,
              kind: "directory",
              exclude: [".git/hooks"],
            },
          ],
        },
      ],
    });
    expect(await treeOf(target)).toEqual([".git", ".git/config"]);
    expect((await lstat(target)).isDirectory()).toBe(true);
  });
});
