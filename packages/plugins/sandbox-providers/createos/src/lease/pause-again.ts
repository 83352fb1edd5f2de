import { PaperclipError } from "@paperclipai/errors";
import type { CreateosClient } from "../client/createos-client.js";
import type { PluginRuntime } from "../plugin/plugin-runtime.js";
import type { ResumeRequest } from "./resume-request.js";
import { readSandboxStatus, transitionSandbox, waitForStatus } from "./sandbox-api.js";
import { endedWhileWaiting, isEnded } from "./sandbox-state.js";

/**
 * How long after a resume's 2xx came a state read of `paused` is taken for a stale one (CreateOS
 * showing the state from before the resume it took). A few seconds: CreateOS's state reads lag
 * a transition by well under that, and past it a sandbox still read `paused` is asleep (the wake
 * did not happen, or something else paused it). Without a bound, such a sandbox would be waited
 * for the whole lifecycle timeout, its lease kept ending (a resume sent again waits for it) and
 * a false warning logged at the end.
 */
export const STALE_PAUSED_GRACE_MS = 3_000;

/** A wait for `running` that ended on a `paused` read taken as the real state: asleep already. */
function foundAsleep(error: unknown): boolean {
  return (
    PaperclipError.is(error, "ERR_CREATEOS_SANDBOX_STATE") &&
    error.details.timedOut !== true &&
    error.details.status === "paused"
  );
}

/**
 * Puts back to sleep a paused sandbox that a failed resume had woken (cut by the host's
 * deadline or by shutdown, or failing on a later step). The host keeps the lease after the
 * failed resume, for a run that may come much later or never (an uninstall), and no worker
 * holds it, so shutdown would not delete it: left awake, the sandbox would run on. Runs after
 * the hook has answered (`runtime.detach`); noted as an ending from its call, so a resume the
 * host sends again waits for it. Bounded by up to about twice the lifecycle timeout (the
 * resume's answer, counted from its request's start, then a new lifecycle timeout for the wait
 * for `running` and the pause), and by shutdown's end (`exitSignal`) whichever comes first.
 *
 * The resume's answer is awaited first. A 2xx makes a state read of `paused` worthless for a
 * while (CreateOS may still show the old state), so the sandbox is awaited `running`, `paused`
 * read as in transition for `STALE_PAUSED_GRACE_MS`, then paused. Otherwise, or after that
 * grace, a `paused` read settles it. A resume with an attempt that got no conclusive answer
 * (CreateOS may carry it out yet), or a pause that fails, is told to the host's log.
 */
export async function pauseAgain(
  runtime: PluginRuntime,
  client: CreateosClient,
  sandboxId: string,
  lifecycleTimeoutMs: number,
  resume: ResumeRequest,
): Promise<void> {
  const done = runtime.leases.ending(sandboxId);
  try {
    const { accepted, unanswered, answeredAt } = await resume.outcome();
    if (unanswered) {
      runtime.warn(
        `CreateOS sandbox ${sandboxId} was sent a resume that got no conclusive answer; CreateOS may still wake it, and it would then run until paused or deleted in CreateOS.`,
        { sandboxId },
      );
    }
    const deadline = runtime.cleanupDeadline(lifecycleTimeoutMs);
    const signal = AbortSignal.any([
      runtime.exitSignal,
      AbortSignal.timeout(Math.max(1, deadline - Date.now())),
    ]);
    if (!accepted) {
      // Still asleep (never sent, or answered and refused) or gone.
      const status = await readSandboxStatus(client, sandboxId, signal);
      if (status === "paused" || status === "pausing" || isEnded(status)) return;
    }
    const staleUntil = (answeredAt ?? Date.now()) + STALE_PAUSED_GRACE_MS;
    await waitForStatus(
      client,
      sandboxId,
      "running",
      deadline,
      signal,
      accepted ? "paused" : undefined,
      staleUntil,
    );
    await transitionSandbox(client, sandboxId, "pause", deadline, signal);
  } catch (error) {
    if (endedWhileWaiting(error) || foundAsleep(error)) return;
    runtime.warn(
      `CreateOS sandbox ${sandboxId} was woken by a resume that then failed and could not be paused again; it may still be running.`,
      {
        sandboxId,
        failure: PaperclipError.is(error) ? { code: error.code, message: error.message } : String(error),
      },
    );
  } finally {
    done();
  }
}
