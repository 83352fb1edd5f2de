import { removeCodexHostTempCreatedLater } from "../src/codex-host-temp.js";

/** Run once around the whole suite: no scenario may remove what a concurrent one's Codex still uses. */
export default function setup(): () => void {
  return removeCodexHostTempCreatedLater();
}
