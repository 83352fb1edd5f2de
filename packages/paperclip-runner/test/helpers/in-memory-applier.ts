import { CommandApplier } from "../../src/durable/engine/command-applier.js";
import type { DurableEngine } from "../../src/durable/engine/durable-engine.js";
import { initialDurableState } from "../../src/durable/state/durable-state.js";
import { StateCommitter } from "../../src/durable/state/state-committer.js";
import { TEST_DURABLE_IDENTITY } from "./durable-identity.js";

/**
 * Durable mode's command applier on `engine`, without a runner around it: its journal kept in
 * memory (the journal's own writes are tested elsewhere), taking the server's first command as
 * seq 1; `results` is every result it sent, in order.
 */
export function inMemoryApplier(engine: DurableEngine): {
  readonly applier: CommandApplier;
  readonly committer: StateCommitter;
  readonly results: readonly Record<string, unknown>[];
} {
  const committer = new StateCommitter(initialDurableState(TEST_DURABLE_IDENTITY, "0.0.0", "sha256:0"), () =>
    Promise.resolve(),
  );
  const results: Record<string, unknown>[] = [];
  const applier = new CommandApplier({
    committer,
    engine,
    turnId: "turn-1",
    historyLimit: 4096,
    sendResult: (result) => results.push(result),
    answered: () => undefined,
    claimStreamEnd: () => true,
    onStreamEnd: () => undefined,
  });
  return { applier, committer, results };
}
