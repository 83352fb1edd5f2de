/**
 * The seed every property test runs with unless `FC_SEED` names another: CI then runs the same
 * cases on every run, so a red build is a change's doing, never the draw's.
 */
export const DEFAULT_FAST_CHECK_SEED = 20_261_203;

/**
 * The seed `FC_SEED` asks for: a 32-bit integer, or `random` for fast-check's own draw (what
 * exploring for new counterexamples wants); unset is the default.
 */
export function fastCheckSeed(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const requested = env.FC_SEED;
  if (requested === undefined || requested === "") return DEFAULT_FAST_CHECK_SEED;
  if (requested === "random") return undefined;
  const seed = Number(requested);
  if (!/^-?\d+$/.test(requested) || seed < -(2 ** 31) || seed >= 2 ** 32) {
    throw new Error(
      `FC_SEED must be an integer that fits 32 bits, or "random"; got ${JSON.stringify(requested)}`,
    );
  }
  return seed;
}
