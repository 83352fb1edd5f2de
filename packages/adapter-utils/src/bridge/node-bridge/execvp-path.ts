import { statSync } from "node:fs";
import { isExecutable } from "../../spawn/resolve-command-path.js";
import { execInterpreters } from "./exec-interpreter.js";

/** execvp's search path when the environment has none (glibc's `_CS_PATH`). */
export const EXECVP_DEFAULT_PATH = "/bin:/usr/bin";

/**
 * Why execvp would fail: `ENOENT` and `EACCES` after its whole search, `ELOOP` and
 * `ENAMETOOLONG` at the candidate that gave them (execvp searches past neither).
 */
export type ExecvpFailure = "ENOENT" | "EACCES" | "ELOOP" | "ENAMETOOLONG";

/** The file execvp would run for a program name, or why it would fail (`startFailureStatus` maps the code). */
export type ExecvpPath = { readonly path: string } | { readonly code: ExecvpFailure };

type Refusal = ExecvpFailure | null;

/** Lookup errors execvp stops at; any other (ENOTDIR…) it treats as a missing file. */
const FINAL_LOOKUP_ERRORS: readonly string[] = ["EACCES", "ELOOP", "ENAMETOOLONG"];

/** Why execve could not open `file` to run it (missing, not a regular file, not executable); `null` when it could. */
function openRefusal(file: string): Refusal {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    return FINAL_LOOKUP_ERRORS.includes(code) ? (code as ExecvpFailure) : "ENOENT";
  }
  return isFile && isExecutable(file) ? null : "EACCES";
}

/** Why execve of `file` would fail with an error execvp searches past; `null` when it would run it. */
function execRefusal(file: string): Refusal {
  const own = openRefusal(file);
  if (own !== null) return own;
  for (const interpreter of execInterpreters(file)) {
    const refusal = openRefusal(interpreter);
    if (refusal !== null) return refusal;
  }
  return null;
}

/**
 * The file `execvp(name)` would run, by its rules, with the program's environment: a name with
 * a slash is taken as it is; a bare one is searched in `PATH` (`EXECVP_DEFAULT_PATH` when unset),
 * an empty entry meaning the working directory, the first file execve would run winning. execvp
 * goes on past a candidate whose execve fails with `ENOENT` or `EACCES` and ends with `EACCES`
 * if any did: one missing, not executable, a directory, or one whose interpreter (its `#!`
 * line's, a dynamic ELF's loader, a script interpreter's own) is missing or not executable
 * (`execInterpreters`). It stops at one whose lookup (its own or an interpreter's) fails with
 * `ELOOP` or `ENAMETOOLONG`. The Node bridge hands the shell that keeps the program's status a path,
 * never a bare name: the shell would run its own builtin of that name (`echo`, `printf`,
 * `kill`, `test`, `pwd`), which differs from the binary (`echo -e`). `resolveCommandPath`
 * (spawn/) is upstream's lookup, with other rules (empty entries skipped, no default, no file
 * type check). A path made of an empty entry stays relative (`./name`), as execvp's is.
 */
export function execvpPath(name: string, env: Readonly<Record<string, string | undefined>>): ExecvpPath {
  if (name === "") return { code: "ENOENT" };
  if (name.includes("/")) return { path: name };
  let denied = false;
  for (const dir of (env.PATH ?? EXECVP_DEFAULT_PATH).split(":")) {
    const candidate = `${dir === "" ? "." : dir}/${name}`;
    const refusal = execRefusal(candidate);
    if (refusal === null) return { path: candidate };
    if (refusal === "ELOOP" || refusal === "ENAMETOOLONG") return { code: refusal };
    if (refusal === "EACCES") denied = true;
  }
  return { code: denied ? "EACCES" : "ENOENT" };
}
