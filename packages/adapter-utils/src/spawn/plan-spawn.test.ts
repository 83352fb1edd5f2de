import { describe, expect, it } from "vitest";
import { helperBwrapArgs, launchCommand } from "./plan-spawn.js";
import type { RunCgroup } from "./run-cgroup.js";
import type { SpareLauncher } from "./spare-launcher.js";

const cgroup = { procsFile: "/sys/fs/cgroup/pids/run-1/cgroup.procs" } as RunCgroup;
const bwrapArgs = ["--unshare-net", "--", "/bin/true"];

describe("launchCommand", () => {
  it("starts bwrap through the cgroup launcher when both exist", () => {
    expect(
      launchCommand({ bwrap: "/usr/bin/bwrap", bwrapArgs, launcher: "/l", cgroup, spare: null }),
    ).toEqual({
      command: "/l",
      args: ["--cgroup", cgroup.procsFile, "--", "/usr/bin/bwrap", ...bwrapArgs],
    });
  });

  it("names bwrap itself when a spare becomes it, or when there is no launcher or cgroup", () => {
    const spare = { cgroup } as SpareLauncher;
    const direct = { command: "/usr/bin/bwrap", args: bwrapArgs };
    expect(launchCommand({ bwrap: "/usr/bin/bwrap", bwrapArgs, launcher: "/l", cgroup, spare })).toEqual(
      direct,
    );
    expect(
      launchCommand({ bwrap: "/usr/bin/bwrap", bwrapArgs, launcher: null, cgroup, spare: null }),
    ).toEqual(direct);
    expect(
      launchCommand({ bwrap: "/usr/bin/bwrap", bwrapArgs, launcher: "/l", cgroup: null, spare: null }),
    ).toEqual(direct);
  });
});

describe("helperBwrapArgs", () => {
  it("puts the status and filter descriptors before the target's arguments, each only when used", () => {
    expect(helperBwrapArgs(true, true, bwrapArgs)).toEqual([
      "--json-status-fd",
      "3",
      "--seccomp",
      "4",
      ...bwrapArgs,
    ]);
    expect(helperBwrapArgs(false, true, bwrapArgs)).toEqual(["--seccomp", "4", ...bwrapArgs]);
    expect(helperBwrapArgs(true, false, bwrapArgs)).toEqual(["--json-status-fd", "3", ...bwrapArgs]);
    expect(helperBwrapArgs(false, false, bwrapArgs)).toEqual(bwrapArgs);
  });

  it("takes the filter's variable out of bwrap's options where --seccomp loads it, and nowhere else", () => {
    const filterEnv = ["--setenv", "PAPERCLIP_SANDBOX_SECCOMP", "00"];
    // A value spelt like the option, and a program argument after `--`, stay as they are.
    const target = [
      "--setenv",
      "X",
      "--setenv",
      ...filterEnv,
      "--chdir",
      "/",
      "--",
      "/bin/echo",
      ...filterEnv,
    ];
    const kept = ["--setenv", "X", "--setenv", "--chdir", "/", "--", "/bin/echo", ...filterEnv];
    expect(helperBwrapArgs(false, true, target)).toEqual(["--seccomp", "4", ...kept]);
    expect(helperBwrapArgs(false, false, target)).toEqual(target);
    expect(() => helperBwrapArgs(false, true, ["--unknown", "--"])).toThrow(/does not know/);
  });
});
