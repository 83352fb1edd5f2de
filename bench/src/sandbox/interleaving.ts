// How the sandbox suite interleaves its peers, so a change in machine load hits every peer alike.

/** Rounds of the network measurements: one sandboxed client per peer and round, peers in rotating order. */
export const ROUNDS = 7;
/** Measurements each client makes per round (transfers, or batches of concurrent tunnels). */
export const PER_CLIENT = 3;
/** Rounds of sandbox starts, one start per peer and round. */
export const START_RUNS = 21;

/** `list` rotated by `by`: the peer that goes first changes every round, so no peer always follows a warm-up. */
export function rotate<T>(list: readonly T[], by: number): T[] {
  const shift = by % list.length;
  return [...list.slice(shift), ...list.slice(0, shift)];
}
