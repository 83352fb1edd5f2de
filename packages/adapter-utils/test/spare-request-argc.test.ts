import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, openSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { expect, it, onTestFinished } from "vitest";
import { usableNativeBinary } from "../src/bridge/bridge-launch.js";

/** The request on a descriptor of its own, closed when the test finishes. */
function requestFd(dir: string, fields: string): number {
  const file = path.join(dir, "request");
  writeFileSync(file, fields);
  const fd = openSync(file, "r");
  onTestFinished(() => closeSync(fd));
  return fd;
}

/**
 * The spare launcher (`--cgroup-spare`) reads its run from the host as NUL-separated fields,
 * the third the argv's length. Its check `3 + args > count` overflowed for a length near
 * LONG_MAX (undefined behaviour): 9223372036854775807 passed, and the launcher then moved
 * the environment by a wild offset and tried to run a field that was no command. The host
 * never writes such a length, so nothing in a sandbox could send one; the check is now
 * written so that it cannot overflow, and refuses it as malformed.
 */
it.each(["9223372036854775807", "9223372036854775806", "99999999999999999999", "-9223372036854775808", "2"])(
  "refuses a spare request whose argv length is %s as malformed",
  async (argc) => {
    const launcher = await usableNativeBinary();
    expect(launcher, "the native binary runs here").toBeTruthy();
    const dir = tempDirForTest("paperclip-spare-argc-");
    // A plain file stands in for cgroup.procs: joining only writes the launcher's pid there.
    const procs = path.join(dir, "cgroup.procs");
    writeFileSync(procs, "");
    const request = requestFd(dir, `x\0/\0${argc}\0/bin/true\0`);
    const result = spawnSync(launcher!, ["--cgroup-spare", procs], {
      stdio: ["ignore", "pipe", "pipe", "ignore", "ignore", request],
      encoding: "utf8",
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({
      status: 125,
      stderr: "paperclip-sandbox: malformed spare launcher request\n",
    });
  },
);

it("still runs a well-formed request", async () => {
  const launcher = await usableNativeBinary();
  const dir = tempDirForTest("paperclip-spare-argc-");
  const procs = path.join(dir, "cgroup.procs");
  writeFileSync(procs, "");
  const request = requestFd(dir, "x\0/\x002\0/bin/echo\0ran\0");
  const stdout = execFileSync(launcher!, ["--cgroup-spare", procs], {
    stdio: ["ignore", "pipe", "pipe", "ignore", "ignore", request],
    encoding: "utf8",
  });
  expect(stdout).toBe("ran\n");
});
