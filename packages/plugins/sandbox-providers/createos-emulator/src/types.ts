/**
 * Public types of the local CreateOS emulator (`@paperclipai/createos-emulator`).
 *
 * The emulator is a real HTTP server on loopback implementing the CreateOS calls the plugin
 * uses, under `/v1`, with real child processes. Sandbox paths seen by the API and by
 * processes: `/paperclip-workspace/**` and `/tmp/**` are private per-sandbox directories on
 * the host (see `isolation` for how processes see them). Any other path is outside the
 * emulated sandbox's writable area and the files API answers 403 for it.
 */

import type { EmulatorFaultControl, Fault, FaultPlan } from "./fault-types.js";

/** States reported by `GET /v1/sandboxes/{id}`. */
export type SandboxStatus =
  | "creating"
  | "running"
  | "pausing"
  | "paused"
  | "resuming"
  | "error"
  | "destroyed"
  | "failed";

/** A fixed name for each call of the API; fault rules and request records use it. */
export type EmulatorRoute =
  | "sandbox.create"
  | "sandbox.get"
  | "sandbox.pause"
  | "sandbox.resume"
  | "sandbox.delete"
  | "sandbox.exec"
  | "files.put"
  | "files.get"
  | "process.create"
  | "process.stdinClose"
  | "process.connect"
  | "process.wait"
  | "process.kill"
  | "unknown";

/** How the emulator's processes see a sandbox's paths (see `CreateosEmulatorOptions.isolation`). */
export type EmulatorIsolation = "none" | "bwrap" | "namespace";

export interface CreateosEmulatorOptions {
  /** Loopback address to listen on (default `127.0.0.1`); non-loopback hosts are refused. */
  readonly host?: string;
  /** Port (default 0: a free port). */
  readonly port?: number;
  /** The accepted `X-Api-Key` (default: a random key, see `emulator.apiKey`). */
  readonly apiKey?: string;
  /** Heartbeat interval on idle connect streams in ms (default 2000). */
  readonly heartbeatMs?: number;
  /** Output journal size per process in bytes of payload (default 1 MiB). */
  readonly journalBytes?: number;
  /**
   * What happens when a process writes faster than its readers take the output (default false):
   * - `false` (the service's behaviour): the journal evicts the oldest frames; a reader that
   *   falls behind gets `output_offset_expired` (error frame, or HTTP 410 on connect).
   * - `true`: frames not yet written to a connection (and to every attached one) are kept and
   *   the emulator stops reading the process's pipes, so the process blocks like on a full
   *   pipe. Use it for throughput benchmarks, where the producer outruns any reader.
   */
  readonly journalBackpressure?: boolean;
  /** Requests per minute per caller IP (default 300); `null` turns the rate limit off. */
  readonly rateLimitPerMinute?: number | null;
  /** Token-bucket burst (default 100, at most `rateLimitPerMinute`). */
  readonly rateLimitBurst?: number;
  /** Delay of each asynchronous state change (creating/pausing/resuming) in ms (default 50). */
  readonly transitionMs?: number;
  /** Host directory under which sandbox directories are created (default: a fresh dir in the OS temp dir). */
  readonly workspaceRoot?: string;
  /**
   * How processes see `/paperclip-workspace` and `/tmp` (default `"none"`):
   * - `"none"`: plain child processes; the path prefixes `/paperclip-workspace` and `/tmp` in
   *   `cmd`, `args` and `cwd` are rewritten to the sandbox's host directories, and `TMPDIR`,
   *   `HOME` and `PAPERCLIP_EMULATOR_WORKSPACE` point there. Paths computed at run time by the
   *   command (for example `pwd`) show host paths.
   * - `"bwrap"`: each process and `exec` runs in this repo's bubblewrap sandbox
   *   (`@paperclipai/adapter-utils`, workspace filesystem scope, network denied): only system
   *   directories read-only, the sandbox's directories writable at `/paperclip-workspace`
   *   and `/tmp`, so paths are exact. Sandbox directories then live under `/var/tmp` by
   *   default (a `workspaceRoot` under `/tmp` is refused: it would be hidden by `/tmp`).
   * - `"namespace"`: plain child processes as with `"none"` (the host's processes, network and
   *   uid: a background process outlives its command and reaches loopback, as in a CreateOS
   *   VM), each in a bubblewrap mount namespace where `/paperclip-workspace` and `/tmp` are the
   *   sandbox's directories and everything else is the host's, so paths are exact and nothing
   *   is rewritten; `HOME` is `/tmp`, outside the workspace as a VM's home is. Needs a bubblewrap that can make a mount namespace (root, or unprivileged
   *   user namespaces).
   */
  readonly isolation?: EmulatorIsolation;
  /** The bubblewrap executable for `isolation: "bwrap"` or `"namespace"` (default `bwrap` on PATH). */
  readonly bwrapPath?: string;
  /** Faults armed from the start. */
  readonly faults?: FaultPlan;
  /** Maximum buffered output per stream of `exec` in bytes (default 1 MiB). */
  readonly execOutputBytes?: number;
  /**
   * The shape catalog: a create with another shape gets 400 (default: CreateOS's published
   * catalog, `s-0.25vcpu-512mb` … `s-8vcpu-16gb`); `null` accepts any shape.
   */
  readonly shapes?: readonly string[] | null;
}

export interface SandboxSnapshot {
  readonly id: string;
  readonly status: SandboxStatus;
  readonly shape: string;
  readonly rootfs: string | null;
  readonly region: string | null;
  /** Host directory backing `/paperclip-workspace`. */
  readonly workspaceDir: string;
  /** Host directory backing `/tmp`. */
  readonly tmpDir: string;
  readonly processIds: readonly string[];
}

export interface ProcessSnapshot {
  readonly id: string;
  readonly sandboxId: string;
  /** OS pid of the process-group leader (`/bin/bash`, or `bwrap`). */
  readonly osPid: number;
  /** True until the leader has exited. */
  readonly running: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** True once `DELETE …/processes/{pid}` (or sandbox deletion/close) has killed the tree. */
  readonly killedTree: boolean;
  /** True while any process of the tree (leader's group or its descendants) is still alive on the OS. */
  readonly treeAlive: boolean;
  readonly newestSeq: number;
  /** Frames with `seq <= evictedBefore` were evicted from the journal. */
  readonly evictedBefore: number;
  /** Payload bytes currently retained in the journal. */
  readonly journalBytes: number;
  readonly stdinClosed: boolean;
}

export interface RequestRecord {
  readonly method: string;
  /** The path without the query string, for example `/v1/sandboxes/sbx_1/processes`. */
  readonly path: string;
  readonly query: string;
  readonly route: EmulatorRoute;
  /** The HTTP status answered; 0 when the connection was destroyed before a status was sent. */
  readonly status: number;
  /** The fault that decided this answer, if any. */
  readonly fault?: Fault["kind"];
  /**
   * The TCP connection that carried it: 1, 2, … in the order connections carry their first
   * request. Requests with the same number shared a kept-alive connection.
   */
  readonly connection: number;
}

export interface CreateosEmulator {
  /** The HTTP origin, for example `http://127.0.0.1:43125` (the API lives under `/v1`). */
  readonly url: string;
  readonly port: number;
  readonly apiKey: string;
  readonly faults: EmulatorFaultControl;
  sandboxes(): SandboxSnapshot[];
  processes(): ProcessSnapshot[];
  requests(): RequestRecord[];
  /** Settles once every request in flight now (a `late-apply` one waiting included) has been handled. */
  settled(): Promise<void>;
  /** Force a sandbox state (for example `"error"`), cancelling any pending transition. */
  setSandboxStatus(id: string, status: SandboxStatus): void;
  /**
   * Deletes a sandbox behind its client's back (the dashboard, another API client): its
   * processes die and its directories go; it then reads `destroyed`, or with `forget` is
   * unknown (404). False when no such sandbox exists.
   */
  deleteSandbox(id: string, options?: { readonly forget?: boolean }): Promise<boolean>;
  /** Kill every process tree, remove every sandbox directory, close every socket. Idempotent. */
  close(): Promise<void>;
}
