import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "@paperclipai/repo-checks/workspace-packages";
import { toolchainCache } from "@paperclipai/test-support/paperclip-toolchain";

/** The Node majors of scripts/lib/node-matrix.json (the test command's matrix). */
export const NODE_MAJORS: readonly number[] = (
  JSON.parse(readFileSync(path.join(repoRoot, "scripts/lib/node-matrix.json"), "utf8")) as {
    majors: number[];
  }
).majors;

/** A node binary of `major`: the one running this suite when it is that major, else the pinned one. */
export async function nodeBinary(major: number): Promise<string> {
  if (Number(process.versions.node.split(".")[0]) === major) return process.execPath;
  return toolchainCache("the registry release e2e", "node", String(major));
}
