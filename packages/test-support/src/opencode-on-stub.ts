import { readFileSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ChatBody } from "./chat-completions-stub.js";
import { toolchainCache } from "./paperclip-toolchain.js";
import { processesWith, readCommandLine } from "./proc.js";

// The real OpenCode CLI (the server's pinned 1.18.29) answering from a loopback model stub.
//
// The server's proxy spawns the launch profile's executable with an environment of its own
// allowlist (PATH, locale, proxies, OPENROUTER_API_KEY) and its own HOME, XDG dirs and
// opencode.json, whose provider entry names only the model. No knob the proxy passes on can
// point OpenCode's provider at a loopback URL, so the launch profile's executable is a wrapper
// that adds the stub's provider (OPENCODE_CONFIG_CONTENT, merged last over the proxy's
// config) and keeps OpenCode off the network, then execs the real binary, as the Codex e2e's
// wrapper does for `codex app-server`.

/** The stub's provider and model, as the run's `provider.model` names them. */
export const STUB_MODEL = "paperclip-stub/stub-model";

/** The real `opencode` executable from the toolchain cache (installed from npm the first time); `who` names the tests that need it. */
export const realOpencodeBinary = (who: string): string => toolchainCache(who, "opencode");

/** An agent request offers tools (a side request, a session title say, offers none). */
export const offersTools = (body: ChatBody): boolean => (body.tools?.length ?? 0) > 0;

/** OpenCode names an MCP tool after its server: the bridge's finish tool, whatever its prefix. */
export const finishTool = (body: ChatBody): string =>
  body.tools?.map((tool) => tool.function.name).find((name) => name.endsWith("paperclip_finish")) ??
  "paperclip_finish (not offered)";

const shellQuoted = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * Writes, under `work`, an executable that runs `binary` (the real OpenCode) with its model
 * provider on `stubBaseUrl`, and returns its path (the launch profile's `executable`).
 */
export async function writeOpencodeOnStub(
  work: string,
  binary: string,
  stubBaseUrl: string,
  /** OpenCode's `TMPDIR`; `null` leaves it unset (in a sandbox whose /tmp is its own). */
  temp: string | null = path.join(work, "opencode tmp"),
): Promise<string> {
  const [providerId, modelId] = STUB_MODEL.split("/") as [string, string];
  const config = {
    provider: {
      [providerId]: {
        // Bundled in OpenCode's binary: no provider package is installed at run time.
        npm: "@ai-sdk/openai-compatible",
        options: { baseURL: stubBaseUrl, apiKey: "stub-key" },
        models: { [modelId]: { name: modelId, tool_call: true } },
      },
    },
  };
  // OpenCode makes $TMPDIR/opencode; the proxy passes no TMPDIR, so it would land in /tmp.
  if (temp !== null) await mkdir(temp, { recursive: true });
  const wrapper = path.join(work, "opencode-on-stub");
  const lines = [
    "#!/bin/sh",
    `export OPENCODE_CONFIG_CONTENT=${shellQuoted(JSON.stringify(config))}`,
    // Else it fetches its model catalogue from https://models.opencode.ai at start and hourly;
    // the stub's model is declared above.
    "export OPENCODE_DISABLE_MODELS_FETCH=true",
    // Language servers it would fetch for the files an agent touches.
    "export OPENCODE_DISABLE_LSP_DOWNLOAD=true",
    // OpenCode installs @opencode-ai/plugin into every config dir in the background (npm's
    // client inside it): offline, against a loopback port nobody serves, that fails at once.
    "export npm_config_offline=true",
    "export npm_config_registry=http://127.0.0.1:9/",
    ...(temp === null ? [] : [`export TMPDIR=${shellQuoted(temp)}`]),
    `exec ${shellQuoted(binary)} "$@"`,
    "",
  ];
  await writeFile(wrapper, lines.join("\n"));
  await chmod(wrapper, 0o755);
  return wrapper;
}

/** Where OpenCode writes when nobody points its dirs elsewhere. */
export const OPENCODE_HOST_DIRS = [
  path.join(os.homedir(), ".cache/opencode"),
  path.join(os.homedir(), ".config/opencode"),
  path.join(os.homedir(), ".local/share/opencode"),
  path.join(os.homedir(), ".local/state/opencode"),
  path.join(os.tmpdir(), "opencode"),
];

/**
 * This test's processes that name the OpenCode binary: those whose command line or environment
 * also names `work` (the wrapper's `TMPDIR`, the runner's paths), so another run of the same
 * toolchain's OpenCode is neither killed nor counted.
 */
export function opencodeProcessesIn(binary: string, work: string): number[] {
  return processesWith(binary).filter((pid) => {
    try {
      return (
        readCommandLine(pid)?.includes(work) === true ||
        readFileSync(`/proc/${pid}/environ`, "utf8").includes(work)
      );
    } catch {
      return false;
    }
  });
}
