import type { ServerCommand } from "../state/command-journal.js";
import type { EngineOutput } from "./engine-output.js";

export type EngineEvent = Extract<EngineOutput, { kind: "event" }>;
export type EngineReceipt = Extract<EngineOutput, { kind: "receipt" }>;

/**
 * What durable mode drives: the scripted harness's run loop (`EngineBridge`) or
 * a provider executor. Its events reach durable mode through the `onEvent`
 * callback it was built with, numbered contiguously (a restarted engine continues
 * the numbering, and durable mode drops what it already has).
 */
export interface DurableEngine {
  /** Resolves when the engine takes commands (after its recovery, on a restart). */
  readonly ready: Promise<void>;
  /** Settles when the engine's run is over (its exit status), or rejects with its failure. */
  readonly finished: Promise<number>;
  readonly isFinished: boolean;
  command(command: ServerCommand, engineSeq: number): Promise<EngineReceipt>;
  acknowledge(seq: number): void;
  shutdown(): void;
  /** Runs before durable mode handles any command, drain and suspend included (a provider's pending recovery). */
  beforeCommand?(command: ServerCommand): Promise<void>;
  /** Runs once a command's answer is sent (a drain's held events are committed just after it). */
  afterCommand?(command: ServerCommand): Promise<void>;
  /** Whether the engine holds events back that it has not emitted yet (a drain then reports them retained). */
  holdsEvents?(): boolean;
  /**
   * A command arrived that durable mode will apply once those before it are done (not one the
   * journal answers): the engine may begin work that commits nothing and that only the
   * command's own application completes (the Codex executor starts its provider ahead).
   */
  commandArrived?(command: ServerCommand): void;
}
