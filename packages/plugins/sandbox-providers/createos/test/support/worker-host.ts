import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import {
  createErrorResponse,
  createRequest,
  isJsonRpcErrorResponse,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  JSONRPC_ERROR_CODES,
  parseMessage,
  serializeMessage,
} from "@paperclipai/plugin-sdk";

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error & { rpcCode?: number }) => void;
}

export interface Notification {
  readonly method: string;
  readonly params: unknown;
  readonly paperclipInvocationId?: string;
}

/**
 * The host side of the worker protocol, built from the SDK's own protocol helpers:
 * newline-delimited JSON-RPC 2.0 over the child's stdin/stdout, as the Paperclip host
 * speaks it to `node dist/worker.js`.
 */
export class WorkerHost {
  readonly notifications: Notification[] = [];
  readonly stderr: string[] = [];
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    child.stderr.setEncoding("utf8").on("data", (text: string) => this.stderr.push(text));
    createInterface({ input: child.stdout }).on("line", (line) => this.#onLine(line));
  }

  static start(workerPath: string, env: NodeJS.ProcessEnv): WorkerHost {
    return new WorkerHost(spawn(process.execPath, [workerPath], { env, stdio: ["pipe", "pipe", "pipe"] }));
  }

  call<T = unknown>(
    method: string,
    params: unknown,
    invocation?: { id: string; companyId: string },
  ): Promise<T> {
    const id = this.#nextId++;
    const request = {
      ...createRequest(method, params, id),
      // The host stamps every top-level invocation; the worker echoes its id on notifications.
      ...(invocation
        ? { paperclipInvocation: { id: invocation.id, scope: { companyId: invocation.companyId } } }
        : {}),
    };
    const reply = new Promise<T>((resolve, reject) =>
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject }),
    );
    this.#child.stdin.write(serializeMessage(request));
    return reply;
  }

  async exit(): Promise<number | null> {
    if (this.#child.exitCode !== null) return this.#child.exitCode;
    const [code] = (await once(this.#child, "exit")) as [number | null];
    return code;
  }

  kill(): void {
    if (this.#child.exitCode === null) this.#child.kill("SIGKILL");
  }

  #onLine(line: string): void {
    if (line.trim() === "") return;
    const message = parseMessage(line);
    if (isJsonRpcNotification(message)) {
      this.notifications.push({
        method: message.method,
        params: message.params,
        ...(message.paperclipInvocationId === undefined
          ? {}
          : { paperclipInvocationId: message.paperclipInvocationId }),
      });
      return;
    }
    if (isJsonRpcRequest(message)) {
      // A worker->host call; this plugin makes none, so answer like a host without the method.
      this.#child.stdin.write(
        serializeMessage(
          createErrorResponse(message.id, JSONRPC_ERROR_CODES.METHOD_NOT_FOUND, "not available in test host"),
        ),
      );
      return;
    }
    if (!isJsonRpcResponse(message) || typeof message.id !== "number") return;
    const pending = this.#pending.get(message.id);
    if (pending === undefined) return;
    this.#pending.delete(message.id);
    if (isJsonRpcErrorResponse(message)) {
      pending.reject(Object.assign(new Error(message.error.message), { rpcCode: message.error.code }));
    } else {
      pending.resolve(message.result);
    }
  }
}
