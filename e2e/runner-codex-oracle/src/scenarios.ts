// What the bench suite and the tour take from this package: the scenarios and the toolchain they run on.
export {
  runCodexScenario,
  type ScenarioKind,
  type ScenarioOptions,
  type ScenarioOutcome,
} from "./run-scenario.js";
export { type CodexToolchain, OUR_RUNNER_BIN, resolveCodexToolchain } from "./toolchain.js";
