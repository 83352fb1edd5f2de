/** Why a run ended. Exactly one `run.terminal` event carries one of these; the runner decides it, not the harness. */
export type TerminalReason =
  | "successful_process_and_result"
  | "semantic_result_missing"
  | "harness_reported_failure"
  | "harness_process_failed"
  | "harness_start_failed"
  | "harness_protocol_violation"
  | "turn_interrupted"
  | "run_cancelled"
  | "controller_closed"
  | "runner_shutdown";
