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
    const moved = moveLoaderEnv({
      PATH: "/usr/bin",
      LD_PRELOAD: "/ws/a.so b.so",
      GLIBC_TUNABLES: "glibc.malloc.check=3",
      LD_AUDIT: undefined,
    });
    expect(moved.bwrapArgs).toEqual([
      "--setenv",
      "LD_PRELOAD",
      "/ws/a.so b.so",
      "--setenv",
      "GLIBC_TUNABLES",
      "glibc.malloc.check=3",
    ]);
    expect(moved.overlay).toEqual({ LD_PRELOAD: undefined, GLIBC_TUNABLES: undefined });
  });

  it("keeps an empty value (the program sees it set and empty)", () => {
    expect(moveLoaderEnv({ LD_LIBRARY_PATH: "" }).bwrapArgs).toEqual(["--setenv", "LD_LIBRARY_PATH", ""]);
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
        moveLoaderEnv(env);
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
    expect(moveLoaderEnv({ OTHER: 42, PATH: "a\0b" }).bwrapArgs).toEqual([]);
  });
});
