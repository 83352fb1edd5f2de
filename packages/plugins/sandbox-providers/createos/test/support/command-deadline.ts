/**
 * The deadline of a command that a test lets time out while it runs. It also covers staging
 * stdin, creating the process and its first output, which on a loaded 2-core CI runner took
 * longer than the 300 ms some tests allowed: the deadline then fired during process creation
 * (ERR_CREATEOS_PROCESS_UNCONFIRMED) or before the first output, not while the command ran.
 */
export const RUNNING_COMMAND_DEADLINE_MS = 3_000;
