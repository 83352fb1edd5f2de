import { SandboxError } from "@paperclipai/errors";

/**
 * The `LD_` names glibc's dynamic loader (ld.so) reads at a dynamically linked program's
 * start, before `main` (elf/dl-support.c, rtld.c, dl-librecon.h): these run code or open
 * files in whatever process is started with them, bwrap included.
 */
export const LOADER_LD_NAMES: readonly string[] = [
  "LD_AOUT_LIBRARY_PATH",
  "LD_AOUT_PRELOAD",
  "LD_ASSUME_KERNEL",
  "LD_AUDIT",
  "LD_BIND_NOT",
  "LD_BIND_NOW",
  "LD_DEBUG",
  "LD_DEBUG_OUTPUT",
  "LD_DYNAMIC_WEAK",
  "LD_HWCAP_MASK",
  "LD_LIBRARY_PATH",
  "LD_ORIGIN_PATH",
  "LD_POINTER_GUARD",
  "LD_PREFER_MAP_32BIT_EXEC",
  "LD_PRELOAD",
  "LD_PROFILE",
  "LD_PROFILE_OUTPUT",
  "LD_SHOW_AUXV",
  "LD_TRACE_LOADED_OBJECTS",
  "LD_TRACE_PRELINKING",
  "LD_USE_LOAD_BIAS",
  "LD_VERBOSE",
  "LD_WARN",
];

/**
 * The rest of glibc's `UNSECURE_ENVVARS` (sysdeps/generic/unsecvars.h: what glibc removes
 * for a setuid program), with the malloc variables of its tunables' env aliases: names
 * that make libc load modules (`GCONV_PATH`), parse files (`LOCPATH`, `NLSPATH`, `TZDIR`, …)
 * or write one (`MALLOC_TRACE`).
 */
const LIBC_UNSECURE_NAMES: ReadonlySet<string> = new Set([
  "GLIBC_TUNABLES",
  "GCONV_PATH",
  "GETCONF_DIR",
  "HOSTALIASES",
  "LOCALDOMAIN",
  "LOCPATH",
  "MALLOC_TRACE",
  "NIS_PATH",
  "NLSPATH",
  "RESOLV_HOST_CONF",
  "RES_OPTIONS",
  "TMPDIR",
  "TZDIR",
]);

/**
 * A variable meant for the program that bwrap's own process must not start with: any `LD_`
 * name (glibc reads only some, a future one may read more), `MALLOC_` names and the rest
 * of glibc's unsecure list (pure).
 */
export function isLoaderEnvName(name: string): boolean {
  return name.startsWith("LD_") || name.startsWith("MALLOC_") || LIBC_UNSECURE_NAMES.has(name);
}

/** What carries the program's loader variables past bwrap's own start. */
export interface MovedLoaderEnv {
  /** `--setenv NAME VALUE` for each: bwrap sets them after it has started, for the program only. */
  readonly bwrapArgs: string[];
  /** The env overlay for bwrap's process: each name deleted (`undefined`). */
  readonly overlay: Record<string, undefined>;
}

/** `details.name` is the variable (`null`: the env itself); the message names it printably, never its value. */
function invalidEnv(name: string | null, problem: string): SandboxError {
  const subject = name === null ? "env" : `${JSON.stringify(name)}'s`;
  return new SandboxError("ERR_SANDBOX_ENV_INVALID", `Invalid sandbox env: ${subject} ${problem}.`, {
    details: { name, reason: problem },
  });
}

/** The names deleted for bwrap whatever the env holds: glibc's `LD_` names and `GLIBC_TUNABLES`. */
const KNOWN_LOADER_NAMES: readonly string[] = [...LOADER_LD_NAMES, "GLIBC_TUNABLES"];

/**
 * The program's loader variables moved out of bwrap's environment into its argv (pure:
 * the host's env is a parameter). With `env` (the environment the caller spawns the
 * target with, read as Node's `spawn` reads it: every enumerable key, inherited ones too),
 * each loader variable in it becomes `--setenv` and is deleted for bwrap's process: the
 * program receives it unchanged, bwrap's loader never sees it. One whose value is the
 * host's own (`hostEnv[name] === value`: the process building the sandbox runs with it,
 * so the operator chose it for the host) stays in bwrap's env, which may need it (an
 * `LD_LIBRARY_PATH` for a custom prefix); the program inherits it from bwrap. Any other
 * {@link KNOWN_LOADER_NAMES} name is deleted for bwrap too. Without `env`, those known names
 * are deleted and not passed on: the builder cannot know their values. A loader variable
 * whose value is not a string, or whose name or value holds a NUL (or the name a `=`),
 * throws `ERR_SANDBOX_ENV_INVALID`.
 */
export function moveLoaderEnv(
  env: unknown,
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
): MovedLoaderEnv {
  const overlay: Record<string, undefined> = {};
  const bwrapArgs: string[] = [];
  if (env === undefined || env === null) {
    for (const name of KNOWN_LOADER_NAMES) overlay[name] = undefined;
    return { bwrapArgs, overlay };
  }
  if (typeof env !== "object" || Array.isArray(env)) {
    throw invalidEnv(null, `is ${Array.isArray(env) ? "an array" : typeof env}, not an object`);
  }
  const values = env as Record<string, unknown>;
  const kept = new Set<string>();
  for (const name in values) {
    const value = values[name];
    // A name with `=` ("GLIBC_TUNABLES=x") would set the variable before its `=` in bwrap's env.
    if (!isLoaderEnvName(name.split("=")[0]!) || value === undefined) continue;
    if (typeof value !== "string")
      throw invalidEnv(name, `value is ${value === null ? "null" : typeof value}, not a string`);
    if (name.includes("\0") || name.includes("=")) throw invalidEnv(name, "name holds a NUL or '='");
    if (value.includes("\0")) throw invalidEnv(name, "value holds a NUL");
    if (Object.hasOwn(hostEnv, name) && hostEnv[name] === value) {
      kept.add(name);
      continue;
    }
    bwrapArgs.push("--setenv", name, value);
    overlay[name] = undefined;
  }
  for (const name of KNOWN_LOADER_NAMES) if (!kept.has(name)) overlay[name] = undefined;
  return { bwrapArgs, overlay };
}
