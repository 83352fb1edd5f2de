// Runs under the pinned Node 24: upstream's own local-mode controller drives the runner binary it finds
// beside its copy, then turns the trace into a replay fixture. Prints one JSON line.
const [controllerModule, scenario, duplicate] = process.argv.slice(2);
const upstream = await import(controllerModule);
try {
  const trace = await upstream.runLocalRunnerScenario({
    scenario,
    duplicateTurnCommand: duplicate === "duplicate",
  });
  let fixture = null;
  let fixtureError = null;
  try {
    fixture = upstream.localRunnerTraceAsFixture(trace);
  } catch (error) {
    fixtureError = String(error?.message ?? error);
  }
  process.stdout.write(
    `${JSON.stringify({ ok: true, trace, fixtureValid: fixture !== null, fixtureError })}\n`,
  );
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: String(error?.message ?? error) })}\n`);
}
