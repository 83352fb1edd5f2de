import { SandboxError } from "@paperclipai/errors";

/**
 * The binds of a bwrap argv that the sandbox still shows when the program starts (pure):
 * what the exec shim can check (bind-identities.ts). A bind whose destination, or a
 * directory above it, a later mount covers is out of sight there, so it is not listed.
 */

/** Options that mount a source on their second argument. */
const BIND_OPTIONS = new Set(["--bind", "--ro-bind", "--dev-bind"]);
/** Options that mount something on their last argument, by how many arguments they take. */
const OTHER_MOUNTS = new Map([
  ["--tmpfs", 1],
  ["--proc", 1],
  ["--dev", 1],
  ["--mqueue", 1],
  ["--bind-fd", 2],
  ["--ro-bind-fd", 2],
  ["--bind-data", 2],
  ["--ro-bind-data", 2],
]);
/** Every other option the builders emit, by how many arguments it takes. */
const OTHER_OPTIONS = new Map([
  ["--die-with-parent", 0],
  ["--new-session", 0],
  ["--unshare-pid", 0],
  ["--unshare-ipc", 0],
  ["--unshare-uts", 0],
  ["--unshare-net", 0],
  ["--unshare-user", 0],
  ["--unshare-cgroup", 0],
  ["--unshare-all", 0],
  ["--as-pid-1", 0],
  ["--cap-drop", 1],
  ["--cap-add", 1],
  ["--size", 1],
  ["--perms", 1],
  ["--remount-ro", 1],
  ["--dir", 1],
  ["--chdir", 1],
  ["--unsetenv", 1],
  ["--uid", 1],
  ["--gid", 1],
  ["--hostname", 1],
  ["--seccomp", 1],
  ["--add-seccomp-fd", 1],
  ["--json-status-fd", 1],
  ["--info-fd", 1],
  ["--sync-fd", 1],
  ["--block-fd", 1],
  ["--symlink", 2],
  ["--setenv", 2],
  ["--chmod", 2],
  ["--file", 2],
]);

/** How many arguments the bwrap option `option` takes, or `undefined` for one the builders never emit. */
export function bwrapOptionArgumentCount(option: string): number | undefined {
  if (BIND_OPTIONS.has(option)) return 2;
  return OTHER_MOUNTS.get(option) ?? OTHER_OPTIONS.get(option);
}

export interface FinalBind {
  readonly source: string;
  readonly dest: string;
}

function unknownOption(option: string, index: number): SandboxError {
  return new SandboxError(
    "ERR_SANDBOX_BWRAP_OPTION_UNKNOWN",
    `The sandbox's bwrap argv holds an option its bind check does not know: ${JSON.stringify(option)}.`,
    { details: { option, index } },
  );
}

function covers(above: string, dest: string): boolean {
  return above === dest || above === "/" || dest.startsWith(`${above}/`);
}

export interface ArgvMount {
  readonly bind: FinalBind | null;
  readonly dest: string;
}

/** Every mount of `args` (bwrap options, up to `--` or the end), in argv order, covered or not. */
export function argvMounts(args: readonly string[]): ArgvMount[] {
  const mounts: ArgvMount[] = [];
  for (let at = 0; at < args.length && args[at] !== "--"; ) {
    const option = args[at] as string;
    if (BIND_OPTIONS.has(option)) {
      const source = args[at + 1] as string;
      const dest = args[at + 2] as string;
      mounts.push({ bind: { source, dest }, dest });
      at += 3;
    } else if (OTHER_MOUNTS.has(option)) {
      const count = OTHER_MOUNTS.get(option) as number;
      mounts.push({ bind: null, dest: args[at + count] as string });
      at += count + 1;
    } else {
      const count = OTHER_OPTIONS.get(option);
      // Guessing its arguments could take a later bind for one and leave it unchecked.
      if (count === undefined) throw unknownOption(option, at);
      at += count + 1;
    }
  }
  return mounts;
}

/** The destination of every mount of `args`, in argv order (pure). */
export function mountDestinations(args: readonly string[]): string[] {
  return argvMounts(args).map((mount) => mount.dest);
}

/** The binds `args` (bwrap options, up to `--` or the end) leaves in sight, in argv order. */
export function finalBinds(args: readonly string[]): FinalBind[] {
  const mounts = argvMounts(args);
  return mounts.flatMap((mount, index) =>
    mount.bind && !mounts.slice(index + 1).some((later) => covers(later.dest, mount.dest))
      ? [mount.bind]
      : [],
  );
}
