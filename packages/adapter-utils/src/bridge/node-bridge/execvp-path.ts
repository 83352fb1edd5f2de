import { statSync } from "node:fs";
import { isExecutable } from "../../spawn/resolve-command-path.js";

/** execvp's search path when the environment has none (glibc's `_CS_PATH`). */
export const EXECVP_DEFAULT_PATH = "/bin:/usr/bin";

/** The file execvp would run for a program name, or why it would fail (`startFailureStatus` maps the code). */
export type ExecvpPath = { readonly path: string } | { readonly code: "ENOENT" | "EACCES" };

/**
 * The file `execvp(name)` would run, by its rules, with the program's environment: a name with
 * a slash is taken as it is; a bare one is searched in `PATH` (`EXECVP_DEFAULT_PATH` when unset),
 * an empty entry meaning the working directory, the first executable regular file winning; one
 * found but not executable (or a directory) is passed over, and makes the failure `EACCES`
 * rather than `ENOENT`. The Node bridge hands the shell that keeps the program's status a path,
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
    let isFile: boolean;
    try {
      isFile = statSync(candidate).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EACCES") denied = true;
      continue;
    }
    if (isFile && isExecutable(candidate)) return { path: candidate };
    denied = true;
  }
  return { code: denied ? "EACCES" : "ENOENT" };
}
