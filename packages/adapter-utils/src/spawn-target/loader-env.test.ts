import { PaperclipError } from "@paperclipai/errors";
import { describe, expect, it } from "vitest";
import { isLoaderEnvName, LOADER_LD_NAMES, moveLoaderEnv } from "./loader-env.js";

describe("isLoaderEnvName", () => {
  it("covers every LD_ name, GLIBC_TUNABLES, malloc's and the rest of glibc's unsecure list", () => {
    for (const name of [
      "LD_PRELOAD",
      "LD_LIBRARY_PATH",
      "LD_AUDIT",
      "LD_SOME_FUTURE_NAME",
      "GLIBC_TUNABLES",
      "GCONV_PATH",
      "LOCPATH",
      "NLSPATH",
      "MALLOC_TRACE",
      "MALLOC_ARENA_MAX",
      "TZDIR",
      "TMPDIR",
      "RES_OPTIONS",
      "HOSTALIASES",
    ]) {
      expect(isLoaderEnvName(name), name).toBe(true);
    }
  });

  it("leaves other variables in bwrap's environment", () => {
    for (const name of ["PATH", "HOME", "ld_preload", "XLD_PRELOAD", "NODE_OPTIONS", "HTTP_PROXY", "LANG"]) {
      expect(isLoaderEnvName(name), name).toBe(false);
    }
  });
});

describe("moveLoaderEnv", () => {
  it("moves each loader variable of the env to --setenv and deletes it for bwrap, leaving the rest", () => {
    const moved = moveLoaderEnv(
      {
        PATH: "/usr/bin",
        LD_PRELOAD: "/ws/a.so b.so",
        GLIBC_TUNABLES: "glibc.malloc.check=3",
        MALLOC_ARENA_MAX: "2",
        LD_AUDIT: undefined,
      },
      {},
    );
    expect(moved.bwrapArgs).toEqual([
      "--setenv",
      "LD_PRELOAD",
      "/ws/a.so b.so",
      "--setenv",
      "GLIBC_TUNABLES",
      "glibc.malloc.check=3",
      "--setenv",
      "MALLOC_ARENA_MAX",
      "2",
    ]);
    // Every known loader name goes too, given or not (the caller's spawn may add one).
    expect(Object.keys(moved.overlay).sort()).toEqual(
      [...LOADER_LD_NAMES, "GLIBC_TUNABLES", "MALLOC_ARENA_MAX"].sort(),
    );
    expect(Object.values(moved.overlay).every((value) => value === undefined)).toBe(true);
  });

  it("keeps an empty value (the program sees it set and empty)", () => {
    expect(moveLoaderEnv({ LD_LIBRARY_PATH: "" }, {}).bwrapArgs).toEqual(["--setenv", "LD_LIBRARY_PATH", ""]);
  });

  it("without an env deletes glibc's LD_ names and GLIBC_TUNABLES, passing nothing on", () => {
    const moved = moveLoaderEnv(undefined);
    expect(moved.bwrapArgs).toEqual([]);
    expect(Object.keys(moved.overlay).sort()).toEqual([...LOADER_LD_NAMES, "GLIBC_TUNABLES"].sort());
    expect(Object.values(moved.overlay).every((value) => value === undefined)).toBe(true);
  });

  it.each([
    ["a NUL in a value", { LD_PRELOAD: "a\0b" }, "LD_PRELOAD", '"LD_PRELOAD"\'s value holds a NUL'],
    ["a number", { LD_PRELOAD: 42 }, "LD_PRELOAD", "value is number, not a string"],
    ["null", { GLIBC_TUNABLES: null }, "GLIBC_TUNABLES", "value is null, not a string"],
    ["a '=' in a name", { "LD_X=Y": "1" }, "LD_X=Y", "name holds a NUL or '='"],
    [
      "a loader name before a '='",
      { "GLIBC_TUNABLES=glibc": "x" },
      "GLIBC_TUNABLES=glibc",
      "name holds a NUL or '='",
    ],
    ["a string env", "LD_PRELOAD=x", null, "env is string, not an object"],
    ["an array env", ["LD_PRELOAD=x"], null, "env is an array, not an object"],
  ])(
    "refuses %s with ERR_SANDBOX_ENV_INVALID, naming the variable, never the value",
    (_, env, name, text) => {
      let caught: unknown;
      try {
        moveLoaderEnv(env, {});
      } catch (error) {
        caught = error;
      }
      expect(PaperclipError.is(caught, "ERR_SANDBOX_ENV_INVALID")).toBe(true);
      const error = caught as PaperclipError;
      expect(error.message).toContain(text);
      expect(error.details).toMatchObject({ name });
      expect(error.message).not.toContain("a\0b");
    },
  );

  it("does not judge variables it does not move", () => {
    expect(moveLoaderEnv({ OTHER: 42, PATH: "a\0b" }, {}).bwrapArgs).toEqual([]);
  });

  it("reads inherited keys too, as Node's spawn does", () => {
    const env = Object.assign(Object.create({ LD_PRELOAD: "/ws/evil.so" }) as object, { PATH: "/usr/bin" });
    const moved = moveLoaderEnv(env, {});
    expect(moved.bwrapArgs).toEqual(["--setenv", "LD_PRELOAD", "/ws/evil.so"]);
    expect(moved.overlay).toHaveProperty("LD_PRELOAD", undefined);
  });
});

describe("moveLoaderEnv and the host's own env (trusted)", () => {
  const host = {
    LD_LIBRARY_PATH: "/opt/site/lib",
    GLIBC_TUNABLES: "glibc.malloc.check=0",
    MALLOC_ARENA_MAX: "4",
  };

  it("leaves in bwrap's env a loader variable whose value is the host's own, moving the run's", () => {
    const moved = moveLoaderEnv(
      { ...host, LD_PRELOAD: "/ws/evil.so", GLIBC_TUNABLES: "glibc.malloc.check=3", PATH: "/usr/bin" },
      host,
    );
    expect(moved.bwrapArgs).toEqual([
      "--setenv",
      "GLIBC_TUNABLES",
      "glibc.malloc.check=3",
      "--setenv",
      "LD_PRELOAD",
      "/ws/evil.so",
    ]);
    expect(moved.overlay).not.toHaveProperty("LD_LIBRARY_PATH");
    expect(moved.overlay).not.toHaveProperty("MALLOC_ARENA_MAX");
    expect(moved.overlay).toHaveProperty("LD_PRELOAD", undefined);
    expect(moved.overlay).toHaveProperty("GLIBC_TUNABLES", undefined);
  });

  it("moves a value that differs from the host's, or a name the host does not have", () => {
    const moved = moveLoaderEnv({ LD_LIBRARY_PATH: "/ws/lib:/opt/site/lib", LD_AUDIT: "" }, host);
    expect(moved.bwrapArgs).toEqual([
      "--setenv",
      "LD_LIBRARY_PATH",
      "/ws/lib:/opt/site/lib",
      "--setenv",
      "LD_AUDIT",
      "",
    ]);
    expect(moved.overlay).toHaveProperty("LD_LIBRARY_PATH", undefined);
  });

  it("trusts nothing the host's env only inherits, and defaults to this process's env", () => {
    const inherited = Object.create({ LD_PRELOAD: "/ws/evil.so" }) as Record<string, string>;
    expect(moveLoaderEnv({ LD_PRELOAD: "/ws/evil.so" }, inherited).bwrapArgs).toHaveLength(3);
    const name = "LD_PAPERCLIP_TEST_HOST_VALUE";
    process.env[name] = "/opt/host";
    try {
      expect(moveLoaderEnv({ [name]: "/opt/host" }).bwrapArgs).toEqual([]);
      expect(moveLoaderEnv({ [name]: "/ws/x" }).bwrapArgs).toEqual(["--setenv", name, "/ws/x"]);
    } finally {
      delete process.env[name];
    }
  });
});
