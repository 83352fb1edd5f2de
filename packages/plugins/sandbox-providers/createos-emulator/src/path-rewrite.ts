import type { SandboxDirs } from "./sandbox-paths.js";

// A sandbox path prefix starts a word or follows a quote, `=`, `:` or `(`, and ends at a
// path separator or a shell delimiter, so `/tmpfoo` or `/x/tmp` are left alone.
const PREFIX = /(^|[\s'"=:(])(\/paperclip-workspace|\/tmp)(?=$|[/\s'";:)&|<>])/g;

/**
 * Without bubblewrap the sandbox paths do not exist on the host: rewrite the prefixes
 * `/paperclip-workspace` and `/tmp` in command text to the sandbox's host directories.
 */
export function rewriteSandboxPaths(text: string, dirs: SandboxDirs): string {
  return text.replace(
    PREFIX,
    (_match, lead: string, prefix: string) => lead + (prefix === "/tmp" ? dirs.tmpDir : dirs.workspaceDir),
  );
}
