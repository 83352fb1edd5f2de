// How the Codex driver reports: one JSON line per record on stdout, steps timed from the
// driver's start. Written for this repository.

/** `print` writes a record; `mark` a step reached; `attempt` runs a step and records its error, if any. */
export function createStepLog() {
  const started = performance.now();
  const print = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);
  const mark = (step, extra = {}) => print({ type: "step", step, ms: performance.now() - started, ...extra });
  // A step that fails is recorded with its error; the scenario still closes the session.
  async function attempt(name, body) {
    try {
      await body();
      return true;
    } catch (error) {
      print({
        type: "step",
        step: name,
        ms: performance.now() - started,
        error: String(error?.message ?? error).slice(0, 1_000),
      });
      return false;
    }
  }
  return { print, mark, attempt };
}
