import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { childForTest, killGroupAfterTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { groupEmpty, listTree } from "../src/process-tree.js";

describe("groupEmpty", () => {
  it("is false while the leader runs and true once it is reaped with nothing left behind", async () => {
    const leader = childForTest(() => spawn("/bin/sleep", ["30"], { detached: true, stdio: "ignore" }));
    const pgid = leader.pid!;
    expect(groupEmpty(pgid)).toBe(false);
    const exited = once(leader, "exit");
    leader.kill("SIGKILL");
    await exited;
    expect(groupEmpty(pgid)).toBe(true);
    expect(listTree(pgid)).toEqual([]);
  });

  it("is false while a background child of the reaped leader is still in the group", async () => {
    const leader = childForTest(() =>
      spawn("/bin/bash", ["-c", "sleep 30 & echo $!"], {
        detached: true,
        stdio: ["ignore", "pipe", "ignore"],
      }),
    );
    const pgid = leader.pid!;
    killGroupAfterTest(pgid);
    const [line] = (await once(createInterface({ input: leader.stdout! }), "line")) as [string];
    await once(leader, "exit");
    expect(groupEmpty(pgid)).toBe(false);
    expect(listTree(pgid)).toEqual([Number(line)]);
  });
});
