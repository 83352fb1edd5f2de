import { spawnSync } from "node:child_process";
import { CreateosError } from "@paperclipai/errors";

/** Runs `true` under bubblewrap once, so a missing or unusable bwrap fails at start, not per process. */
export function probeBwrap(bwrapPath: string): void {
  const result = spawnSync(bwrapPath, ["--ro-bind", "/", "/", "--", "true"], {
    encoding: "utf8",
    timeout: 10_000,
  });
  if (result.status === 0) return;
  throw new CreateosError(
    "ERR_CREATEOS_EMULATOR_BWRAP",
    "The CreateOS emulator cannot confine processes with bubblewrap.",
    {
      cause: result.error,
      details: {
        bwrapPath,
        exitStatus: result.status,
        stderr: (result.stderr ?? "").slice(0, 2000),
        spawnError: (result.error as NodeJS.ErrnoException | undefined)?.code ?? null,
      },
    },
  );
}
