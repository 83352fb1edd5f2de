import { expect, onTestFinished } from "vitest";
import type WebSocket from "ws";
import { parseFlags } from "../../src/cli/flags.js";
import { readDurableOptions } from "../../src/durable/durable-options.js";
import { DurableRunner } from "../../src/durable/durable-runner.js";
import type { DurableEngine } from "../../src/durable/engine/durable-engine.js";
import { type DurableState, initialDurableState } from "../../src/durable/state/durable-state.js";
import { recordedStreamEnd } from "../../src/durable/state/stream-end.js";
import { createDialer } from "../../src/durable/transport/dial.js";
import { HAND_MADE_IDENTITY, HAND_MADE_RUNNER_FLAGS } from "./hand-made-identity.js";
import type { HandMadeServer, PeerConnection } from "./hand-made-prp-server.js";
import { HAND_MADE_TICKET } from "./hand-made-runner.js";

/**
 * An engine whose run ends only when the test says (`finish`): a `runner.shutdown` waits on it,
 * so the test orders what happens while the shutdown is being applied.
 */
export interface HeldEngine extends DurableEngine {
  /** Resolves once the runner asked the engine to shut down (the shutdown is being applied). */
  readonly shutdownAsked: Promise<void>;
  /** Resolves once the runner is done with a command (its result recorded and sent, or not). */
  readonly commandDone: Promise<void>;
  finish(): void;
  /** The engine fails (its harness died, say): the run fails with `error`. */
  crash(error: Error): void;
}

export function heldEngine(): HeldEngine {
  let finish!: () => void;
  let crash!: (error: Error) => void;
  let asked!: () => void;
  let done!: () => void;
  let finished = false;
  const ended = new Promise<number>((resolve, reject) => {
    finish = () => {
      finished = true;
      resolve(0);
    };
    crash = (error) => {
      finished = true;
      reject(error);
    };
  });
  const shutdownAsked = new Promise<void>((resolve) => (asked = resolve));
  const commandDone = new Promise<void>((resolve) => (done = resolve));
  return {
    ready: Promise.resolve(),
    finished: ended,
    get isFinished() {
      return finished;
    },
    command: () => Promise.reject(new Error("no command but the shutdown is expected")),
    acknowledge: () => undefined,
    shutdown: () => asked(),
    afterCommand: async () => done(),
    shutdownAsked,
    commandDone,
    finish,
    crash,
  };
}

/**
 * A `DurableRunner` in this process dialling the hand-made server at `url` with the hand-made
 * ticket, on `engine`, its state kept in memory: `saved` is every state written, in order;
 * `dialled`, every socket it opened, in order.
 * `resumed`: the state an earlier runner left, resumed as a relaunch resumes its state file.
 */
export async function inProcessRunner(
  url: string,
  engine: DurableEngine,
  resumed?: DurableState,
): Promise<{
  readonly runner: DurableRunner;
  readonly saved: readonly DurableState[];
  readonly dialled: readonly WebSocket[];
}> {
  const options = readDurableOptions(
    parseFlags(["--connect-url", url, "--state-dir", "/nonexistent/state", ...HAND_MADE_RUNNER_FLAGS]),
  );
  const dialer = await createDialer(options.endpoint);
  onTestFinished(() => dialer.close());
  const saved: DurableState[] = [];
  const dialled: WebSocket[] = [];
  const initial =
    resumed ?? initialDurableState(HAND_MADE_IDENTITY, options.runnerVersion, options.runnerDigest);
  const runner = new DurableRunner(
    {
      options,
      store: {
        initial,
        recovered: resumed === undefined ? null : { indeterminate: [] },
        engineDirectory: "/nonexistent/engine",
        save: async (state) => {
          saved.push(state);
        },
        close: async () => undefined,
      },
      dial: async (signal) => {
        const socket = await dialer.next(signal);
        dialled.push(socket);
        return socket;
      },
      startEngine: () => engine,
      // What killing the harness does to a run being shut down: its engine finishes.
      killHarness: async () => undefined,
      recordedEnd: recordedStreamEnd(initial),
      log: () => undefined,
    },
    HAND_MADE_TICKET,
  );
  return { runner, saved, dialled };
}

/**
 * An in-process runner (`inProcessRunner`) on `engine`, running, its connection to `server`
 * taken through the ticket handshake and welcomed on the lease `leaseToken` (epoch 2).
 */
export async function welcomedRunner(server: HandMadeServer, engine: DurableEngine, leaseToken: string) {
  const { runner, saved, dialled } = await inProcessRunner(server.url, engine);
  const running = runner.run();
  running.catch(() => undefined);
  const conn = await server.nextConnection();
  await conn.handshake(HAND_MADE_TICKET);
  conn.welcome({ connectionLeaseRevocationEpoch: 2, connectionLeaseToken: leaseToken });
  return { runner, running, saved, dialled, conn };
}

/**
 * Drives a stream-end command (`runner.shutdown`, `runner.suspend`) through a held engine and
 * checks its order: the engine is asked to stop before any result is sent, and no result goes
 * out until the engine ends. Then acknowledges the result, and returns it.
 */
export async function resultAfterEngineStopped(
  engine: HeldEngine,
  conn: PeerConnection,
  commandId: string,
): Promise<Record<string, unknown> | null> {
  const first = await Promise.race([
    engine.shutdownAsked.then(() => "engine asked to stop"),
    conn.resultOf(commandId).then(() => "result sent"),
  ]);
  expect(first).toBe("engine asked to stop");
  expect(conn.resultsOf(commandId)).toEqual([]);
  engine.finish();
  const result = await conn.resultOf(commandId);
  conn.send({ kind: "command_result_ack", payload: { commandId } });
  return result;
}
