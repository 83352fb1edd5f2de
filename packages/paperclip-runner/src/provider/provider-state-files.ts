import { existsSync } from "node:fs";
import { join } from "node:path";
import { RunnerError } from "@paperclipai/errors";
import { CODEX_PROVIDER_STATE_FILE, OTHER_PROVIDER_STATE_FILES } from "./codex-provider-state.js";

/**
 * Which provider owns a state directory on a restart: the one provider state
 * file present (upstream's rule). Two present is a conflict; a file of a kind
 * this runner does not execute is refused with upstream's message.
 */
export function providerStateOwner(stateDir: string): "codex" | null {
  const present = [CODEX_PROVIDER_STATE_FILE, ...OTHER_PROVIDER_STATE_FILES].filter((name) =>
    existsSync(join(stateDir, name)),
  );
  if (present.length > 1) {
    throw new RunnerError(
      "ERR_RUNNER_PROVIDER_STATE_CONFLICT",
      "runner state contains conflicting provider authorities",
      {
        details: { files: present },
      },
    );
  }
  if (present.length === 0) return null;
  if (present[0] === CODEX_PROVIDER_STATE_FILE) return "codex";
  const kind = present[0] === "acpx-provider-state.json" ? "acpx" : "claude_managed";
  throw new RunnerError(
    "ERR_RUNNER_PROVIDER_KIND_UNSUPPORTED",
    `provider kind ${kind} is not executable through the local runnerd boundary`,
    { details: { kind } },
  );
}
