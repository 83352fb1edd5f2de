import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { childForTest, killGroupAfterTest, readProcStat } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { killProcessTree } from "../src/process-tree.js";

describe("killProcessTree", () => {
  it("kills a member that left the group and outlived its parent (a reparented orphan is not forgotten)", async () => {
    // The leader dies on SIGTERM; its child, in a session of its own and ignoring SIGTERM, is
    // then reparented and no longer reachable from the group, as a sandbox's inner bwrap is.
    const leader = childForTest(() =>
      spawn("/bin/bash", ["-c", `setsid /bin/bash -c 'trap "" TERM; echo $$; exec sleep 300' & wait`], {
        detached: true,
        stdio: ["ignore", "pipe", "ignore"],
      }),
    );
    const [line] = (await once(createInterface({ input: leader.stdout! }), "line")) as [string];
    const orphan = Number(line);
    killGroupAfterTest(orphan);
    expect(readProcStat(orphan)?.zombie).toBe(false);

    expect(await killProcessTree(leader.pid!, 200)).toBe(true);
    const after = readProcStat(orphan);
    expect(after === undefined || after.zombie).toBe(true);
  });
});
