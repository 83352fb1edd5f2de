import { RunnerError } from "@paperclipai/errors";
import type { DurableState } from "./durable-state.js";

/**
 * Pure: refuses to serve a state directory whose run the server revoked (`lifecycle: "revoked"`).
 * A revocation is the server's decision that this runner no longer serves the run; the process
 * exits 0 on it, as upstream's does. The server's launcher keeps one directory per run
 * (`runtime/paperclip-runner/runner/<runId>`, or `durable-sessions/<hash>` for a native session),
 * so a runner launched for that run again gets the same directory, and used to resume the revoked
 * run (journal, outbox, provider) as if nothing had happened. Upstream's runner never reconnects
 * from a revoked state either (it exits at once, 0, saying nothing); this one says why, with a
 * code, and exits 1: it refused, it did not end a run. Paperclip's launcher takes exit 0 and 1
 * before the run's result alike (`paperclip_runner_process_exited`), so the code is what tells an
 * operator, who carries the work on in a new run (clearing a native session's directory first). Checked
 * before the state is recovered: the file stays as the revocation left it.
 */
export function refuseRevokedState(state: DurableState): void {
  if (state.lifecycle !== "revoked") return;
  throw new RunnerError(
    "ERR_RUNNER_DURABLE_STATE_REVOKED",
    "the state directory holds a run whose connection lease the server revoked; it is not resumed",
  );
}
