/** The identity a hand-made PRP server (`hand-made-prp-server.ts`) gives its runners, and their flags. */
export const HAND_MADE_IDENTITY = {
  runnerInstanceId: "runner-1",
  environmentLeaseId: "env-1",
  runId: "run-1",
  normalizedSessionId: "session-1",
  turnId: "turn-1",
  itemId: "item-1",
} as const;

/**
 * The flags a durable runner needs besides its endpoint and state dir, for the hand-made
 * identity: its ids, version and digest, and a scripted harness that is never started.
 */
export const HAND_MADE_RUNNER_FLAGS: readonly string[] = [
  "--runner-id",
  HAND_MADE_IDENTITY.runnerInstanceId,
  "--environment-lease-id",
  HAND_MADE_IDENTITY.environmentLeaseId,
  "--run-id",
  HAND_MADE_IDENTITY.runId,
  "--session-id",
  HAND_MADE_IDENTITY.normalizedSessionId,
  "--turn-id",
  HAND_MADE_IDENTITY.turnId,
  "--item-id",
  HAND_MADE_IDENTITY.itemId,
  "--runner-version",
  "0.3.0",
  "--runner-digest",
  `sha256:${"0".repeat(64)}`,
  "--fake-harness",
  "/nonexistent/fake-harness",
  "--fake-harness-script",
  "/nonexistent/script.json",
];
