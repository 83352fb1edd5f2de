import { SandboxError } from "@paperclipai/errors";
import { bwrapOptionArgumentCount } from "../bwrap/final-binds.js";
import { SECCOMP_ENV } from "../spawn-target/program-launch.js";

/**
 * A target's bwrap argv without its `--setenv PAPERCLIP_SANDBOX_SECCOMP <filter>` (pure), for
 * the spawn helper, whose bwrap `--seccomp` loads that filter already: the shim and the native
 * bridge load whatever the variable carries, also over a filter that holds them, since a
 * caller's own (a container runtime's) is inherited through bwrap, so left in it would be
 * loaded twice. Only bwrap's options are read (up to `--`), each with its own arguments, so a
 * value or a program argument spelt like the option is never taken for it.
 */
export function withoutOwnFilterEnv(args: readonly string[]): string[] {
  const kept: string[] = [];
  let at = 0;
  while (at < args.length && args[at] !== "--") {
    const option = args[at] as string;
    const count = bwrapOptionArgumentCount(option);
    if (count === undefined) {
      // Guessing its arguments could leave the variable in, or take a program argument out.
      throw new SandboxError(
        "ERR_SANDBOX_BWRAP_OPTION_UNKNOWN",
        `The sandbox's bwrap argv holds an option the spawn helper does not know: ${JSON.stringify(option)}.`,
        { details: { option, index: at } },
      );
    }
    if (!(option === "--setenv" && args[at + 1] === SECCOMP_ENV))
      kept.push(...args.slice(at, at + count + 1));
    at += count + 1;
  }
  kept.push(...args.slice(at));
  return kept;
}
