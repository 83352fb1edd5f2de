/**
 * Names bash itself gives a meaning to, so that `NAME='v' exec -- cmd` would not hand `cmd`
 * the value verbatim, or would change what bash does first: read-only (`UID`, `EUID`, `PPID`,
 * `SHELLOPTS`, `BASHOPTS`), rewritten on exec (`SHLVL`, `_`), dynamic or array variables
 * (`RANDOM`, `SECONDS`, `LINENO`, `GROUPS`, …), the command lookup (`EXECIGNORE`), the shell's
 * mode (`POSIXLY_CORRECT`) and the locale (`LANG`, `LC_*`, which make bash warn on stderr for a
 * locale the host lacks). A command with any of them in its env goes through `env`, which sets
 * every name verbatim.
 */
const BASH_SPECIAL_NAMES: ReadonlySet<string> = new Set([
  "_",
  "DIRSTACK",
  "EPOCHREALTIME",
  "EPOCHSECONDS",
  "EUID",
  "EXECIGNORE",
  "FUNCNAME",
  "GROUPS",
  "LANG",
  "LINENO",
  "MAPFILE",
  "OPTARG",
  "OPTERR",
  "OPTIND",
  "PIPESTATUS",
  "POSIXLY_CORRECT",
  "PPID",
  "RANDOM",
  "SECONDS",
  "SHELLOPTS",
  "SHLVL",
  "SRANDOM",
  "UID",
]);

/** Prefixes of bash's own families of variables (`BASH_*`, `BASHOPTS`, `COMP_*`, `LC_*`, …). */
const BASH_SPECIAL_PREFIXES = ["BASH", "COMP_", "COPROC", "HIST", "LC_", "READLINE_"] as const;

/** True when bash passes an assignment of `name` to an exec'd command verbatim and unnoticed. */
export function isPlainBashVariable(name: string): boolean {
  return !BASH_SPECIAL_NAMES.has(name) && !BASH_SPECIAL_PREFIXES.some((prefix) => name.startsWith(prefix));
}
