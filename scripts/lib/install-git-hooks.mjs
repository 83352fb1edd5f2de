// The root `prepare` script (run by `pnpm install`): points git at the tracked hooks in
// .githooks (the commit-msg check). Outside a git work tree (an unpacked tarball) it does
// nothing.
import { execFileSync } from "node:child_process";

try {
  execFileSync("git", ["rev-parse", "--is-inside-work-tree"], { stdio: "ignore" });
} catch {
  process.exit(0);
}
execFileSync("git", ["config", "core.hooksPath", ".githooks"], { stdio: "inherit" });
