import { RunnerError } from "@paperclipai/errors";
import type { EngineEvent } from "../durable/engine/durable-engine.js";
import { carriedRecords, type PendingEventRecord } from "./carried-startup-facts.js";
import type { ProviderEvent } from "./codex-notification-events.js";
import { type CodexProviderState, saveCodexProviderState } from "./codex-provider-state.js";
import type { CodexSession } from "./codex-session.js";
import { EarlyDescendantNotes } from "./early-descendant-notes.js";
import type { PrewarmedProvider } from "./provider-prewarm.js";
import type { ProviderExit } from "./provider-process.js";
import { RuntimeInputBridge } from "./runtime-input-bridge.js";
import { SemanticToolBridge } from "./semantic-tool-bridge.js";
import type { GoalState } from "./session-goals.js";

/** The run identity the executor's events and startup facts carry (the runner's CLI identities). */
export interface ExecutorIdentity {
  readonly runnerInstanceId: string;
  readonly runId: string;
  readonly normalizedSessionId: string;
  readonly turnId: string;
  readonly itemId: string;
}

/**
 * What the Codex executor's parts share: the provider state (kept in memory,
 * saved atomically on demand), the live provider session, the event numbering,
 * and one actor that runs commands and provider messages one at a time in
 * arrival order (so a notification that arrives while a request is answered
 * waits for it, as upstream buffers it).
 */
export interface DeferredStartup {
  readonly commandId: string;
  readonly events: ProviderEvent[];
  readonly resume: boolean;
  /**
   * Held by a command that started the provider again on its thread (a goal command after a
   * turn.stop, a turn.start): not a session.open's, not a restarted runner's resume. The
   * next drain commits them (and answers `retainedEventsDrained:false`), as upstream's runner does.
   */
  readonly ensured?: boolean;
  /**
   * A goal command ran while these (`ensured`) were held: Codex's goal notifications that follow
   * answer it (the session's own, deduplicated), they are not resume notes.
   */
  goalCommanded?: boolean;
  goals?: GoalState;
  /**
   * The records of the state's `pendingEvents` that the first of `events` stand for: facts a
   * previous run's suspend carried here (`startup-carry.ts`), forgotten once committed.
   */
  readonly carried?: readonly PendingEventRecord[];
}

export class ExecutorContext {
  session: CodexSession | null = null;
  /** The provider `run.prepare` started ahead of `session.open` (`provider-prewarm.ts`), until taken. */
  prewarmed: PrewarmedProvider | null = null;
  /**
   * Startup facts held back until the next command's own events are committed (upstream's
   * order): a session.open's, or a clean resume's (`resume`), which what Codex sends while it
   * resumes joins (`resume-notifications.ts`), with the goal state it leads to (applied when
   * they are committed, as upstream's snapshot shows it).
   */
  deferredStartup: DeferredStartup | null = null;
  /**
   * A resume's held facts are committed but Codex may not have sent all it sends while it resumes
   * (it can come some hundreds of milliseconds late, behind the next turn's start): until its goal
   * notification or the end of the next turn, such a notification is committed as it arrives, as
   * upstream's runner commits it (`resume-notifications.ts`).
   */
  lateResumeNotes = false;
  /**
   * Starts a provider that exited on its own again (`provider-restart.ts`), set by the executor;
   * null while the server is closing (after a drain or suspend, whose answers promised no more
   * events): an exit is then left to whatever comes next (the next command's check, the next
   * runner's recovery) and reported by nobody now.
   */
  restartProvider: ((exit: ProviderExit) => Promise<void>) | null = null;
  /** The runner is failing (`kill`): nothing the provider does is handled any more, nor the state saved. */
  killed = false;
  /** How often the provider was started again on its own since the last accepted turn. */
  restartsSinceTurnStart = 0;
  /** The provider turn this runner settled last (its late notifications are noticed, not foreign), or null. */
  settledTurnId: string | null = null;
  /** The provider process generation on which the last turn completed (its terminal from the provider), or null. */
  lastTurnCompletedGeneration: number | null = null;
  /**
   * A session.open found the provider running (reported resumed) and no turn was accepted since:
   * upstream's runner answers a drain then `retainedEventsDrained:false` (observed with its binary).
   */
  reopenedWithoutTurn = false;
  /**
   * A refused `session.goal.set` committed held startup facts: upstream's runner then answers
   * drains `retainedEventsDrained:false` until two come in a row (a goal get between them too).
   */
  releasedByRefusal = false;
  /**
   * This runner stopped the provider for a turn.stop: upstream's runner then starts it again for a
   * goal command (a snapshot answers without it) (a runner that resumed the stopped session starts it for a turn only).
   */
  stoppedByTurnStop = false;
  readonly tools: SemanticToolBridge;
  readonly inputs: RuntimeInputBridge;
  /** Sub-agents' notifications that came before the spawn naming them completed. */
  readonly earlyNotes = new EarlyDescendantNotes();
  private current: CodexProviderState | null;
  private eventSeq: number;
  private actor: Promise<unknown> = Promise.resolve();

  constructor(
    readonly identity: ExecutorIdentity,
    private readonly stateDir: string,
    recovered: CodexProviderState | null,
    lastEventSeq: number,
    private readonly onEvent: (event: EngineEvent) => Promise<void>,
  ) {
    this.current = recovered;
    this.eventSeq = lastEventSeq;
    this.tools = new SemanticToolBridge({
      identity,
      emit: (event) => this.emit(event),
      state: () => this.state(),
      update: (change) => this.update(change),
      save: () => this.save(),
      session: () => this.session,
    });
    this.inputs = new RuntimeInputBridge({
      emit: (event) => this.emit(event),
      state: () => this.state(),
      session: () => this.session,
    });
  }

  get bound(): boolean {
    return this.current !== null;
  }

  state(): CodexProviderState {
    if (this.current === null)
      throw new RunnerError("ERR_RUNNER_PROVIDER_NOT_BOUND", "run.prepare has not bound a provider");
    return this.current;
  }

  bind(state: CodexProviderState): void {
    this.current = state;
  }

  update(change: (state: CodexProviderState) => CodexProviderState): void {
    this.current = change(this.state());
  }

  save(): Promise<void> {
    // The next runner reconciles from the state the failing one left (an in-flight step must not rewrite it).
    if (this.killed) return Promise.resolve();
    return saveCodexProviderState(this.stateDir, this.state());
  }

  /** The engine seq of the last event emitted (durable mode's, on a restart, until this runner emits). */
  get lastEventSeq(): number {
    return this.eventSeq;
  }

  /**
   * Resolves once the event is in durable mode's outbox (the events continue durable mode's
   * numbering). `afterAnswer`: sent, with the events after it, once the command being applied is
   * answered (`answer-first.ts`).
   */
  async emit(event: ProviderEvent, options: { readonly afterAnswer?: boolean } = {}): Promise<void> {
    this.eventSeq += 1;
    await this.onEvent({
      kind: "event",
      engineSeq: this.eventSeq,
      event: {
        eventType: event.eventType,
        payload: event.payload,
        priority: event.priority,
        ...(event.schemaVersion === undefined ? {} : { schemaVersion: event.schemaVersion }),
        emittedAt: new Date().toISOString(),
      },
      engineLastControllerSeq: null,
      ...(options.afterAnswer === true ? { afterAnswer: true } : {}),
    });
  }

  /**
   * Commits the startup facts held back (and applies the goal state they lead to). When some were
   * carried from a previous run, each is committed once: all of them are saved as records with the
   * seq the first takes before, forgotten after (`uncommittedRecords` reads what a kill in between
   * left; the facts this run added are saved with them, so that kill loses none).
   */
  async releaseStartup(): Promise<void> {
    const held = this.deferredStartup;
    if (held === null) return;
    this.deferredStartup = null;
    this.lateResumeNotes = held.resume && held.goals === undefined;
    const goals = held.goals;
    const carried = held.carried ?? [];
    if (goals !== undefined || carried.length > 0) {
      this.update((current) => ({
        ...current,
        ...(goals === undefined ? {} : { goals }),
        ...(carried.length === 0
          ? {}
          : {
              ...carriedRecords(carried, held.events, current.nextProviderEventSeq ?? 1),
              pendingEventsReleaseFirstSeq: this.eventSeq + 1,
            }),
      }));
      await this.save();
    }
    await this.emitAll(held.events);
    if (carried.length > 0) {
      this.update((current) => ({ ...current, pendingEvents: [], pendingEventsReleaseFirstSeq: null }));
      await this.save();
    }
  }

  /** Emits in order; the events share one outbox commit (each emit numbers and queues its event before it waits). */
  async emitAll(events: readonly ProviderEvent[]): Promise<void> {
    await Promise.all(events.map((event) => this.emit(event)));
  }

  /** Runs `step` after everything queued before it. */
  run<T>(step: () => Promise<T>): Promise<T> {
    const next = this.actor.then(step, step);
    this.actor = next.catch(() => undefined);
    return next;
  }

  /** The provider's identity as `session.started`/`session.resumed` carry it. */
  identityPayload(): Record<string, unknown> {
    const state = this.state();
    return {
      provider: state.config.provider,
      providerSessionId: state.threadId,
      providerAccountSessionId: state.providerAccountSessionId,
      processId: state.processId,
    };
  }
}
