import { RunnerError } from "@paperclipai/errors";

export const BOOTSTRAP_TICKET_VARIABLE = "PAPERCLIP_RUNNER_BOOTSTRAP_TICKET";

/**
 * Takes the one-time ticket out of the environment: read once, removed at once,
 * so no child process (the harness) inherits it and no later code reads it. Called
 * first thing by the bin, whatever the mode. The kernel's copy in /proc/PID/environ
 * stays, readable by the same uid: Node cannot overwrite it (durable-mode.md).
 */
export function takeBootstrapTicket(env: NodeJS.ProcessEnv): string | null {
  const ticket = env[BOOTSTRAP_TICKET_VARIABLE];
  delete env[BOOTSTRAP_TICKET_VARIABLE];
  return ticket === undefined || ticket === "" ? null : ticket;
}

export function ticketMissing(): RunnerError {
  return new RunnerError(
    "ERR_RUNNER_DURABLE_TICKET_MISSING",
    `durable mode requires the bootstrap ticket in ${BOOTSTRAP_TICKET_VARIABLE}`,
    { details: { variable: BOOTSTRAP_TICKET_VARIABLE } },
  );
}
