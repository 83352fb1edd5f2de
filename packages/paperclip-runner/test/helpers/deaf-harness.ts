import { IDS } from "../local-controller.js";

/**
 * The daemon's command line for run-1 on a `/bin/sh` harness that says ready and then never
 * reads its stdin: it notices neither a full pipe nor that its daemon is gone.
 */
export function deafHarnessArgs(extraArgs: readonly string[] = []): string[] {
  return [
    ...IDS,
    ...["--harness-command", "/bin/sh", "--harness-arg", "-c"],
    ...["--harness-arg", `echo '{"type":"ready"}'; exec sleep 60`],
    ...extraArgs,
  ];
}
