import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { encodeSpareRequest } from "./spare-launcher.js";

describe("encodeSpareRequest", () => {
  it("writes flags, cwd, the argv's length, the argv, then KEY=value, each NUL-terminated", () => {
    const request = encodeSpareRequest({
      command: "/usr/bin/bwrap",
      args: ["--unshare-net", "--", "/bin/true"],
      env: { PATH: "/usr/bin", EMPTY: "" },
      cwd: "/",
      stdin: false,
      status: true,
      seccomp: true,
    });
    expect(request.toString().split("\0")).toEqual([
      "nsf",
      "/",
      "4",
      "/usr/bin/bwrap",
      "--unshare-net",
      "--",
      "/bin/true",
      "PATH=/usr/bin",
      "EMPTY=",
      "",
    ]);
  });

  it("keeps stdin and closes the descriptors a run does not use by leaving their flags out", () => {
    const request = encodeSpareRequest({
      command: "/bin/sh",
      args: [],
      env: {},
      cwd: "/work dir",
      stdin: true,
      status: false,
      seccomp: false,
    });
    expect(request.toString()).toBe("\0/work dir\x001\0/bin/sh\0");
  });

  it.each([
    ["an argument", { args: ["-c", "x\0LD_PRELOAD=/ws/evil.so"] }, "args[1]"],
    ["an env value", { env: { A: "x\0LD_PRELOAD=/ws/evil.so" } }, "options.env['A']"],
    ["an env name", { env: { "A\0LD_PRELOAD": "/ws/evil.so" } }, "options.env['A\\0LD_PRELOAD']"],
    ["the cwd", { cwd: "/\0x" }, "options.cwd"],
  ])(
    "refuses a NUL in %s, which would split its field and shift what follows into bwrap's env",
    (_, change, name) => {
      const request = {
        command: "/usr/bin/bwrap",
        args: ["--", "/bin/true"],
        env: { PATH: "/usr/bin" },
        cwd: "/",
        stdin: false,
        status: false,
        seccomp: false,
        ...change,
      };
      expect(() => encodeSpareRequest(request)).toThrow(
        expect.objectContaining({
          code: "ERR_INVALID_ARG_VALUE",
          message: `The argument '${name}' must be a string without null bytes`,
        }),
      );
    },
  );

  it("reads the env as Node's spawn does: non-strings coerced, undefined skipped, inherited keys kept", () => {
    // What a caller may pass at runtime despite the type: the first run (a direct spawn) works.
    const env = Object.assign(Object.create({ INHERITED: "yes" }) as Record<string, unknown>, {
      PATH: "/usr/bin:/bin",
      PORT: 3000,
      NOTHING: null,
      FLAG: true,
      GONE: undefined,
    });
    const entries = encodeSpareRequest({
      command: "/usr/bin/env",
      args: [],
      env: env as Record<string, string>,
      cwd: "/",
      stdin: false,
      status: false,
      seccomp: false,
    })
      .toString()
      .split("\0")
      .slice(4, -1);
    expect(entries).toEqual([
      "PATH=/usr/bin:/bin",
      "PORT=3000",
      "NOTHING=null",
      "FLAG=true",
      "INHERITED=yes",
    ]);
    const direct = spawnSync("/usr/bin/env", [], { env: env as NodeJS.ProcessEnv, encoding: "utf8" });
    expect(entries.sort()).toEqual(direct.stdout.split("\n").filter(Boolean).sort());
  });

  it("checks NULs in the coerced value", () => {
    const request = {
      command: "/usr/bin/bwrap",
      args: [],
      env: { A: { toString: () => "x\0LD_PRELOAD=/ws/evil.so" } } as unknown as Record<string, string>,
      cwd: "/",
      stdin: false,
      status: false,
      seccomp: false,
    };
    expect(() => encodeSpareRequest(request)).toThrow(
      expect.objectContaining({
        code: "ERR_INVALID_ARG_VALUE",
        message: "The argument 'options.env['A']' must be a string without null bytes",
      }),
    );
  });
});
