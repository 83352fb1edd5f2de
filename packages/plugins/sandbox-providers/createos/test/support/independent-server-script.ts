/**
 * What a test tells the independent server (`independent-server.ts`) to do and what the server
 * records: a process is a scripted frame journal with its exit, every answer can be replaced
 * per route, and each `connect` follows a plan.
 */

export type OutputStream = "stdout" | "stderr";

export interface JournalFrame {
  readonly stream: OutputStream;
  readonly bytes: Buffer;
}

export interface ScriptedExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

export type Route =
  | "sandbox.create"
  | "sandbox.get"
  | "sandbox.delete"
  | "sandbox.exec"
  | "sandbox.pause"
  | "sandbox.resume"
  | "files.put"
  | "files.get"
  | "process.create"
  | "process.stdinClose"
  | "process.connect"
  | "process.wait"
  | "process.kill";

/** A replacement answer; `destroy` cuts the socket before any reply (a lost reply). */
export type Answer =
  | "destroy"
  | {
      readonly status: number;
      /** Seconds, or `date` for an HTTP-date that many seconds ahead. */
      readonly retryAfter?: { readonly seconds: number; readonly asDate?: boolean };
      readonly body?: string;
      readonly contentType?: string;
      readonly location?: string;
    };

export interface Framing {
  /** `frame`: one write per line; `bytes`: random 1..maxChunk byte pieces; `whole`: one write. */
  readonly split?: "frame" | "bytes" | "whole";
  readonly maxChunk?: number;
  readonly lineEnding?: "\n" | "\r\n";
  /** Whether the last line gets its line ending. */
  readonly trailingNewline?: boolean;
  /** Whitespace-only keep-alive lines between frames. */
  readonly blankLines?: boolean;
  /** Unknown fields in every frame, non-ASCII so a byte split can land inside a character. */
  readonly extraFields?: boolean;
  /** Unknown frame types between frames. */
  readonly unknownFrames?: boolean;
  /** How the body is delimited: chunked transfer, Content-Length, or connection close. */
  readonly body?: "chunked" | "length" | "close";
  /** `Connection: close` on a chunked or length-delimited answer. */
  readonly closeConnection?: boolean;
}

export interface ConnectPlan {
  /** A non-stream answer instead of the stream. */
  readonly answer?: Answer;
  /** A 200 whose body is this text (an HTML error page from a proxy, say). */
  readonly rawBody?: string;
  /** First seq sent (default `after + 1`; lower replays duplicates). */
  readonly from?: number;
  /** Last seq sent (default the newest). */
  readonly until?: number;
  /** Send the exit frame after the data (default: when `until` reaches the newest). */
  readonly exit?: boolean;
  /** Heartbeats before the first data frame. */
  readonly leadingHeartbeats?: number;
  /** A heartbeat after every n data frames. */
  readonly heartbeatEvery?: number;
  /** A silent pause (no byte at all) before the first frame. */
  readonly quietMs?: number;
  /** After the frames: heartbeats at this cadence for this long, before the end. */
  readonly idleHeartbeats?: { readonly intervalMs: number; readonly forMs: number };
  /** After the frames: one byte of a frame that never ends at this cadence, until the client leaves. */
  readonly trickleMs?: number;
  /** An `error` frame after the data. */
  readonly errorFrame?: string;
  /** How the response ends: cleanly, with a socket reset (mid-line when `cutMidLine`), or a stall that never closes. */
  readonly end?: "end" | "reset" | "stall";
  readonly cutMidLine?: boolean;
  readonly framing?: Framing;
}

export interface WaitAnswer {
  readonly status: number;
  readonly body?: string;
}

export interface ServerScript {
  readonly frames: readonly JournalFrame[];
  readonly exit: ScriptedExit;
  /** Plan of connect number `attempt` (1-based) with `after` from the query. */
  readonly connect?: (attempt: number, after: number) => ConnectPlan;
  /** Answer of wait number `attempt`; `undefined` = the truthful exited reply. */
  readonly wait?: (attempt: number) => WaitAnswer | undefined;
  /** Answers consumed in order per route before the normal behaviour resumes. */
  readonly faults?: Partial<Record<Route, Answer[]>>;
  /** `id` the sandbox create returns (default a fresh valid id). */
  readonly sandboxId?: unknown;
  /** `process_id` the create returns (default a fresh valid id). */
  readonly processId?: unknown;
  /** Extra envelope fields and data fields in every JSON answer. */
  readonly envelopeExtras?: boolean;
  /** `newest_seq` in the wait reply (default the journal's newest; `null` leaves `output` out). */
  readonly newestSeq?: number | null;
}

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly route: Route | "unknown";
  readonly key: string | undefined;
  readonly accept: string | undefined;
  readonly body: Buffer;
}
