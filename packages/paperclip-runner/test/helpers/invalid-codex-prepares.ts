import path from "node:path";
import { codexPrepare } from "./codex-durable.js";

// The run.prepare payloads the prepare differentials (`codex-prepare-*-upstream.test.ts`) send.

/** A Codex run.prepare whose provider descriptor `change` edits. */
export function prepareWith(work: string, change: (provider: Record<string, unknown>) => void) {
  const prepare = codexPrepare(work);
  const provider = { ...(prepare.provider as Record<string, unknown>) };
  change(provider);
  return { ...prepare, provider };
}

/** Invalid Codex descriptors, each with upstream's refusal (read from its shipped binary's answers). */
export const INVALID_PREPARES: readonly {
  readonly name: string;
  readonly change: (provider: Record<string, unknown>, work: string) => void;
  readonly message: string;
}[] = [
  // The first selects upstream's Codex executor for the runner's lifetime (its kind is codex).
  {
    name: "mismatched driver",
    change: (p) => {
      p.driver = "opencode_server";
    },
    message:
      "local runner provider must be codex through codex_app_server or opencode through opencode_server",
  },
  {
    name: "unknown provider",
    change: (p) => {
      p.provider = "cursor";
    },
    message:
      "local runner provider must be codex through codex_app_server or opencode through opencode_server",
  },
  ...["provider", "driver", "providerVersion", "command", "cwd"].map((key) => ({
    name: `no ${key}`,
    change: (p: Record<string, unknown>) => {
      delete p[key];
    },
    message: `run.prepare provider is invalid: missing field \`${key}\``,
  })),
  {
    name: "args not a list",
    change: (p) => {
      p.args = "app-server";
    },
    message: 'run.prepare provider is invalid: invalid type: string "app-server", expected a sequence',
  },
  {
    name: "a number as model",
    change: (p) => {
      p.model = 5;
    },
    message: "run.prepare provider is invalid: invalid type: integer `5`, expected a string",
  },
  {
    name: "externallySandboxed not a boolean",
    change: (p) => {
      p.externallySandboxed = "yes";
    },
    message: 'run.prepare provider is invalid: invalid type: string "yes", expected a boolean',
  },
  {
    name: "blank providerVersion",
    change: (p) => {
      p.providerVersion = "  ";
    },
    message: "Codex providerVersion is empty or oversized",
  },
  {
    name: "providerVersion of 121 bytes",
    change: (p) => {
      p.providerVersion = "v".repeat(121);
    },
    message: "Codex providerVersion is empty or oversized",
  },
  {
    name: "empty command",
    change: (p) => {
      p.command = "";
    },
    message: "Codex command is required",
  },
  {
    name: "relative cwd",
    change: (p) => {
      p.cwd = "workspace";
    },
    message: "Codex cwd must be an existing absolute directory",
  },
  {
    name: "missing cwd",
    change: (p, work) => {
      p.cwd = path.join(work, "nowhere");
    },
    message: "Codex cwd must be an existing absolute directory",
  },
  {
    name: "cwd a file",
    change: (p) => {
      p.cwd = process.execPath;
    },
    message: "Codex cwd must be an existing absolute directory",
  },
  {
    name: "65 args",
    change: (p) => {
      p.args = Array.from({ length: 65 }, () => "a");
    },
    message: "Codex arguments exceed the bounded launch contract",
  },
  {
    name: "an arg of 4097 bytes",
    change: (p) => {
      p.args = ["x".repeat(4097)];
    },
    message: "Codex arguments exceed the bounded launch contract",
  },
  {
    name: "an arg with NUL",
    change: (p) => {
      p.args = ["a\0b"];
    },
    message: "Codex arguments exceed the bounded launch contract",
  },
  {
    name: "a model of 121 characters, 242 bytes",
    change: (p) => {
      p.model = "é".repeat(121);
    },
    message: "Codex model is invalid",
  },
  {
    name: "an empty model",
    change: (p) => {
      p.model = "";
    },
    message: "Codex model is invalid",
  },
  {
    name: "an empty providerSessionId",
    change: (p) => {
      p.providerSessionId = "";
    },
    message: "Codex providerSessionId is invalid",
  },
  {
    name: "a providerSessionId of 241 bytes",
    change: (p) => {
      p.providerSessionId = "s".repeat(241);
    },
    message: "Codex providerSessionId is invalid",
  },
  {
    name: "approvalPolicy on-request",
    change: (p) => {
      p.approvalPolicy = "on-request";
    },
    message: "the initial Codex runner requires approvalPolicy=never; governed actions use PRP",
  },
  {
    name: "opencode of another release",
    change: (p) => {
      Object.assign(p, { provider: "opencode", driver: "opencode_server", providerVersion: "1.0.0" });
    },
    message: "OpenCode providerVersion must equal the qualified 1.18.29 release",
  },
  {
    name: "opencode externally sandboxed",
    change: (p) => {
      Object.assign(p, {
        provider: "opencode",
        driver: "opencode_server",
        providerVersion: "1.18.29",
        externallySandboxed: true,
      });
    },
    message: "external sandbox delegation is only supported by the Codex provider",
  },
  {
    name: "opencode model without its provider",
    change: (p) => {
      Object.assign(p, { provider: "opencode", driver: "opencode_server", providerVersion: "1.18.29" });
    },
    message: "OpenCode model must be a qualified provider/model identifier",
  },
];
