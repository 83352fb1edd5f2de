import { RunnerError } from "@paperclipai/errors";
import type { DurableState } from "./durable-state.js";

/**
 * Pure: refuses to serve a state directory whose run the server revoked (`lifecycle: "revoked"`).
 * A revocation is the server's decision that this runner no longer serves the run; the process
 * exits 0 on it, as upstream's does, and the server's launcher, which takes any exit before the
 * run's terminal result as unexpected, relaunches it with a fresh ticket. That relaunch used to
 * resume the revoked run (journal, outbox, provider) as if nothing had happened. Upstream's runner
 * never reconnects from a revoked state either (it exits at once, 0, saying nothing); this one
 * says why, with a code, and exits 1, so the launcher sees a refusal rather than another run that
 * ended cleanly. Checked before the state is recovered: the file stays as the revocation left it.
 */
export function refuseRevokedState(state: DurableState): void {
  if (state.lifecycle !== "revoked") return;
  throw new RunnerError(
    "ERR_RUNNER_DURABLE_STATE_REVOKED",
    "the state directory holds a run whose connection lease the server revoked; it is not resumed",
  );
}
