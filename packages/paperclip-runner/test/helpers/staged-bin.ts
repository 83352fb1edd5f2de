import { chmod, copyFile, cp, link, realpath } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDirForTest } from "@paperclipai/test-support";

const PACKAGES = fileURLToPath(new URL("../../../", import.meta.url));
// The bin's runtime closure: the runner and the workspace packages it imports (no npm dependency).
const RUNTIME = {
  "@paperclipai/paperclip-runner": "paperclip-runner",
  "@paperclipai/adapter-utils": "adapter-utils",
  "@paperclipai/errors": "errors",
};

export interface StagedBin {
  readonly root: string;
  readonly node: string;
  readonly bin: string;
}

/**
 * The built bin and the Node running the tests, staged in a world-readable temp directory.
 * A test that runs the bin as another user needs it: that user can reach neither a checkout
 * below a 0700 directory (anywhere under /root) nor a Node kept in root's cache.
 */
export async function stageForOtherUser(): Promise<StagedBin> {
  const root = tempDirForTest("runnerd-staged-");
  await chmod(root, 0o755);
  const node = join(root, "node");
  const execPath = await realpath(process.execPath);
  await link(execPath, node).catch(() => copyFile(execPath, node));
  for (const [name, dir] of Object.entries(RUNTIME)) {
    for (const part of ["package.json", "dist", "bin"]) {
      await cp(join(PACKAGES, dir, part), join(root, "node_modules", name, part), { recursive: true });
    }
  }
  return {
    root,
    node,
    bin: join(root, "node_modules/@paperclipai/paperclip-runner/bin/paperclip-runnerd.js"),
  };
}

/** runBin options that run the staged bin as uid/gid 65534 (nobody), from the staged directory. */
export async function asNobody(): Promise<{
  staged: StagedBin;
  spawn: { uid: number; gid: number; cwd: string };
}> {
  const staged = await stageForOtherUser();
  return { staged, spawn: { uid: 65534, gid: 65534, cwd: staged.root } };
}
