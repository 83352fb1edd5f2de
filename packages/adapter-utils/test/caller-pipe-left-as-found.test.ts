import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { buildStaticFixture } from "./attack-support.js";
import { cleanupAll, exec, packageDir, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

const bin = path.join(packageDir, "bin", "paperclip-sandbox.js");

const SCOPES: Record<string, string[]> = {
  workspaceDeny: [],
  workspaceAllowlist: ["--allow", "127.0.0.1:9"],
  networkOnlyDeny: ["--host-fs"],
};

/**
 * The CLI hands the program the caller's stdout pipe as it is, and the caller's next command
 * in the same group writes to the same open file description: `{ paperclip-sandbox -- tool;
 * other; } | reader`. A packet pipe (O_DIRECT) left by the program would cut each of `other`'s
 * writes to what one read of the reader takes (here 10 of every 100 bytes).
 */
describe("the caller's stdout pipe", () => {
  it("is left as the program found it: no packet mode for the caller's next writer, in every scope", async () => {
    const ws = scratchDir("pc-pipe-packet-");
    const attack = await buildStaticFixture("pipe-packet-mode", ws);
    for (const [name, flags] of Object.entries(SCOPES)) {
      const cli = [process.execPath, bin, ...flags, "--workspace", ws, "--", attack]
        .map(shellQuote)
        .join(" ");
      const line = `{ ${cli}; head -c 100 /dev/zero; head -c 100 /dev/zero; } | dd bs=10 2>/dev/null | wc -c`;
      const result = await exec("sh", ["-c", line]);
      expect({ stdout: result.stdout.trim(), stderr: result.stderr }, name).toEqual({
        stdout: "200",
        stderr: "F_SETFL O_DIRECT EINVAL\n",
      });
    }
  }, 120_000);
});
