import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { childForTest, tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { findLeftovers, listProcesses } from "../src/leftovers.mjs";

const process1 = {
  pid: 101,
  start: "500",
  command: "node a",
  cwd: "/",
  marked: true,
  zombie: false,
  tmpInUse: [],
};

describe("findLeftovers", () => {
  const before = { tmp: ["existing"], runRoots: ["createos-emulator-old"], processes: ["101@500"] };

  it("reports new /tmp entries, but not the caches tools keep there on purpose", () => {
    const after = {
      tmp: ["existing", "runner-abc", "node-compile-cache", "tsx-0"],
      runRoots: ["createos-emulator-old"],
      processes: [],
    };
    expect(findLeftovers(before, after, new Set()).tmp).toEqual(["runner-abc"]);
  });

  it("passes an empty sandbox socket root, the one every run shares, but not one a run left something in", () => {
    const after = {
      tmp: ["existing", "paperclip-sandbox-sockets-0", "paperclip-sandbox-sockets-1000"],
      emptySocketRoots: ["paperclip-sandbox-sockets-0"],
      runRoots: ["createos-emulator-old"],
      processes: [],
    };
    expect(findLeftovers(before, after, new Set()).tmp).toEqual(["paperclip-sandbox-sockets-1000"]);
    // Only the sandbox's roots: another empty directory is still a leftover.
    const other = { ...after, tmp: ["existing", "runner-abc"], emptySocketRoots: ["runner-abc"] };
    expect(findLeftovers(before, other, new Set()).tmp).toEqual(["runner-abc"]);
  });

  it("counts an emulator sandbox the run started, found by the root its argv or cwd names, and a root left behind", () => {
    const sandbox = {
      ...process1,
      pid: 400,
      marked: false,
      command:
        "bwrap --bind /var/tmp/createos-emulator-new/sandboxes/s1 /workspace -- bash -c sleep 300 & wait",
    };
    const inside = {
      ...process1,
      pid: 401,
      marked: false,
      command: "sleep 300",
      cwd: "/var/tmp/createos-emulator-new/w",
    };
    const older = {
      ...sandbox,
      pid: 402,
      command: "bwrap --bind /var/tmp/createos-emulator-old/s /w -- sleep 9",
    };
    const verdict = findLeftovers(
      before,
      {
        tmp: [],
        runRoots: ["createos-emulator-old", "createos-emulator-new"],
        processes: [sandbox, inside, older],
      },
      new Set(),
    );
    expect(verdict.processes.map((entry) => entry.pid)).toEqual([400, 401]);
    expect(verdict.runRoots).toEqual(["createos-emulator-new"]);
  });

  it("names a new /tmp entry held by a process outside the run as someone else's", () => {
    const stranger = { ...process1, pid: 300, marked: false, tmpInUse: ["theirs"] };
    const ours = { ...process1, pid: 301, zombie: true, tmpInUse: ["ours"] };
    const verdict = findLeftovers(
      before,
      { tmp: ["theirs", "ours"], runRoots: [], processes: [stranger, ours] },
      new Set(),
    );
    expect(verdict.tmp).toEqual(["ours"]);
    expect(verdict.foreign).toEqual([{ name: "theirs", pid: 300 }]);
  });

  it("reports a new process of the run, and a reused pid as the new process it is", () => {
    const reused = { ...process1, start: "900" };
    const fresh = { ...process1, pid: 202 };
    const after = { tmp: [], runRoots: [], processes: [process1, reused, fresh] };
    expect(findLeftovers(before, after, new Set()).processes).toEqual([reused, fresh]);
  });

  it("leaves out other people's processes, zombies and the checker with its ancestors", () => {
    const after = {
      tmp: [],
      runRoots: [],
      processes: [
        { ...process1, pid: 202, marked: false },
        { ...process1, pid: 203, zombie: true },
        { ...process1, pid: 204 },
      ],
    };
    expect(findLeftovers(before, after, new Set([204])).processes).toEqual([]);
  });
});

describe("listProcesses", () => {
  it("finds a running process by the run's marker, with the /tmp entry it works in, and not once it has ended", async () => {
    const marker = `leftovers-test-${process.pid}`;
    // The check reads /tmp itself, whatever TMPDIR says.
    const workDir = tempDirForTest("leftovers-test-", { base: "/tmp" });
    const child = childForTest(() =>
      spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
        cwd: workDir,
        env: { ...process.env, PAPERCLIP_TEST_RUN: marker },
        stdio: "ignore",
      }),
    );
    await once(child, "spawn");
    const found = listProcesses(marker).find((entry) => entry.pid === child.pid);
    expect(found).toMatchObject({ marked: true, zombie: false, tmpInUse: [path.basename(workDir)] });
    expect(found?.command).toContain("setInterval");
    expect(listProcesses("another-run").find((entry) => entry.pid === child.pid)?.marked).toBe(false);
    expect(listProcesses("another-run", "setInterval").find((entry) => entry.pid === child.pid)?.marked).toBe(
      true,
    );
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(listProcesses(marker).some((entry) => entry.pid === child.pid && entry.marked)).toBe(false);
  });
});
