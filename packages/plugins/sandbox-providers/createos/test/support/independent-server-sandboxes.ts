/**
 * The sandboxes and uploaded files the independent server keeps, and its answers to the
 * `sandbox.*` and `files.*` routes: the states each read walks through, uploads by path, and
 * the two buffered commands a plugin runs on them (`rm`, `cat`).
 */
import type { Route } from "./independent-server-script.js";

/** An answer: a JSON envelope of `data`, raw bytes, or a status alone (`data` and `bytes` absent). */
export interface Reply {
  readonly status: number;
  readonly data?: Record<string, unknown>;
  readonly bytes?: Buffer;
}

export type SandboxRoute = Extract<Route, `sandbox.${string}` | `files.${string}`>;

export const isSandboxRoute = (route: Route): route is SandboxRoute =>
  route.startsWith("sandbox.") || route.startsWith("files.");

/** What one request to a sandbox route carries. */
export interface SandboxRequest {
  readonly route: SandboxRoute;
  readonly sandboxId: string;
  /** The `path` query parameter of the file routes. */
  readonly filePath: string | null;
  readonly body: Buffer;
  /** The `id` a create answers instead of the fresh one (a script's invalid id), or `undefined`. */
  readonly idOverride: unknown;
}

interface SandboxState {
  /** States each read walks through; the last one stays. */
  states: string[];
  deleted: boolean;
}

function parseJson(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class ScriptedSandboxes {
  readonly #sandboxes = new Map<string, SandboxState>();
  readonly #files = new Map<string, Buffer>();
  #created = 0;

  constructor(private readonly seed: number) {}

  answer(request: SandboxRequest): Reply {
    const { sandboxId } = request;
    const file = `${sandboxId}:${request.filePath}`;
    switch (request.route) {
      case "sandbox.create":
        return this.#create(request);
      case "sandbox.get": {
        const sandbox = this.#sandboxes.get(sandboxId);
        if (!sandbox || sandbox.deleted) return { status: 404 };
        const status = sandbox.states.length > 1 ? sandbox.states.shift()! : sandbox.states[0]!;
        return { status: 200, data: { id: sandboxId, status, size: "small" } };
      }
      case "sandbox.pause":
      case "sandbox.resume": {
        const sandbox = this.#sandboxes.get(sandboxId);
        if (!sandbox) return { status: 404 };
        // A read right after the accepted POST still shows the old state (spec weak point 7).
        sandbox.states =
          request.route === "sandbox.pause"
            ? ["running", "pausing", "paused"]
            : ["paused", "resuming", "running"];
        return { status: 202, data: {} };
      }
      case "sandbox.delete": {
        const sandbox = this.#sandboxes.get(sandboxId);
        if (sandbox) sandbox.deleted = true;
        return { status: 204 };
      }
      case "sandbox.exec":
        return this.#exec(sandboxId, request.body);
      case "files.put":
        this.#files.set(file, request.body);
        return { status: 200, data: {} };
      case "files.get": {
        const content = this.#files.get(file);
        return content ? { status: 200, bytes: content } : { status: 404 };
      }
    }
  }

  /** Paths of the files a sandbox holds (uploads not yet removed by an `exec` of `/bin/rm`). */
  filePaths(sandboxId: string): string[] {
    return [...this.#files.keys()]
      .filter((key) => key.startsWith(`${sandboxId}:`))
      .map((key) => key.slice(sandboxId.length + 1));
  }

  /** Someone else deletes a sandbox: it then reads `destroyed`, or with `forget` 404. */
  deleteBehindPlugin(sandboxId: string, forget: boolean): void {
    if (forget) this.#sandboxes.delete(sandboxId);
    else this.#sandboxes.set(sandboxId, { states: ["destroyed"], deleted: false });
  }

  #create(request: SandboxRequest): Reply {
    // The service's catalog, from its naming scheme: `s-<vcpus>vcpu-<memory>(mb|gb)`.
    const shape = parseJson(request.body)?.shape;
    if (typeof shape !== "string" || !/^s-\d+(\.\d+)?vcpu-\d+(mb|gb)$/.test(shape)) {
      return { status: 400, data: { error: "unknown shape" } };
    }
    this.#created++;
    const id = `sb-${this.seed}-${this.#created}`;
    // Asynchronous states: the first read still shows it starting.
    this.#sandboxes.set(id, { states: ["creating", "running"], deleted: false });
    return {
      status: 201,
      data: { id: request.idOverride === undefined ? id : request.idOverride, status: "creating" },
    };
  }

  // What a plugin's buffered commands do here: `rm -f -- path` forgets an upload, and
  // `cat path` prints one (exit 1 when it is missing), as upstream reads its lease marker.
  #exec(sandboxId: string, body: Buffer): Reply {
    const command = parseJson(body);
    const args = Array.isArray(command?.args) ? command.args : [];
    const file = `${sandboxId}:${String(args.at(-1))}`;
    if (command?.cmd === "/bin/rm") this.#files.delete(file);
    if (command?.cmd === "/bin/cat") {
      const content = this.#files.get(file);
      return {
        status: 200,
        data: {
          result: content
            ? { exit_code: 0, stdout: content.toString("utf8"), stderr: "" }
            : { exit_code: 1, stdout: "", stderr: "cat: No such file or directory\n" },
        },
      };
    }
    return { status: 200, data: { result: { exit_code: 0, stdout: "", stderr: "" } } };
  }
}
