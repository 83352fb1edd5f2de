import type { ServerCommand } from "../durable/state/command-journal.js";
import type { CodexProviderState } from "./codex-provider-state.js";
import { CodexSession, type SessionDeps } from "./codex-session.js";
import type { ExecutorContext } from "./executor-context.js";
import { handleProviderInbound } from "./provider-inbound.js";

/** A provider started (and initialized) ahead of its `session.open`, waiting to be taken. */
export interface PrewarmedProvider {
  readonly session: CodexSession;
  /** The configuration it was spawned with: only a session for the same one takes it. */
  readonly config: CodexProviderState["config"];
  /** Lets what it sent through: to the session, once taken; to nobody, once let go of. */
  readonly release: () => void;
}

/**
 * A session whose provider messages wait until `release`, then are handled as the executor's
 * (in arrival order, behind the step running then) while it is the executor's session.
 */
export function heldSession(
  ctx: ExecutorContext,
  deps: Omit<SessionDeps, "onInbound">,
): { session: CodexSession; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const session: CodexSession = new CodexSession({
    ...deps,
    onInbound: async (message) => {
      await released;
      await ctx.run(async () => {
        // Messages of a provider the executor already let go of are not this session's.
        if (ctx.session === session) await handleProviderInbound(ctx, message);
      });
    },
  });
  return { session, release };
}

/**
 * Starts the provider of a freshly prepared Codex session once its `session.open` has arrived,
 * while `run.prepare` is committed and `session.open` journalled, so its start (the longest part
 * of the server's `thread/start`) overlaps those writes. Only `initialize` is sent: the thread is
 * asked for by `session.open` once its `pending` record is durable, so a crash before then
 * leaves no thread behind (the provider, no thread in it, dies with the runner's group).
 * OpenCode is not started ahead.
 */
function prewarmProvider(
  ctx: ExecutorContext,
  deps: Omit<SessionDeps, "onInbound">,
  state: CodexProviderState,
): void {
  if (state.config.kind !== "codex" || state.threadId !== null) return;
  const { session, release } = heldSession(ctx, deps);
  try {
    session.start(state);
  } catch {
    // `session.open` starts it again and reports the failure as it always did.
    release();
    return;
  }
  ctx.prewarmed = { session, config: state.config, release };
}

/**
 * When the provider starts ahead: once a `session.open` has arrived (durable mode tells the
 * executor before its turn) and `run.prepare` has bound a fresh session, whichever comes last.
 */
export class StartAhead {
  /** A `session.open` arrived and is still to be applied. */
  private openArrived = false;

  constructor(
    private readonly ctx: ExecutorContext,
    private readonly deps: Omit<SessionDeps, "onInbound">,
    /** The executor takes no provider now (a recovery is pending, or its run is over). */
    private readonly held: () => boolean,
  ) {}

  arrived(command: ServerCommand): void {
    if (command.type !== "session.open") return;
    this.openArrived = true;
    this.start();
  }

  /** The `session.open` is applied now: it takes the provider started ahead, or nothing does. */
  taken(): void {
    this.openArrived = false;
  }

  /** Starts the provider if a `session.open` is on its way to a freshly prepared session. */
  start(): void {
    const ctx = this.ctx;
    if (!this.openArrived || this.held() || !ctx.bound || ctx.killed) return;
    if (ctx.session !== null || ctx.prewarmed !== null) return;
    const state = ctx.state();
    if (state.lifecycle === "prepared") prewarmProvider(ctx, this.deps, state);
  }
}

/**
 * The provider started ahead for this state, if any: taken as it is, exited or failed
 * included, so `session.open` reports what it would have reported starting it itself
 * (a spawn failure, an exit before or a refusal of `initialize`); one for another
 * configuration is let go of.
 */
export function takePrewarmed(ctx: ExecutorContext, state: CodexProviderState): PrewarmedProvider | null {
  const prewarmed = ctx.prewarmed;
  ctx.prewarmed = null;
  if (prewarmed === null) return null;
  if (prewarmed.config === state.config && state.threadId === null) return prewarmed;
  void letGo(prewarmed);
  return null;
}

/** Stops a provider started ahead that no `session.open` took (the run ends, closes or is prepared again). */
export async function discardPrewarmed(ctx: ExecutorContext): Promise<void> {
  const prewarmed = ctx.prewarmed;
  ctx.prewarmed = null;
  if (prewarmed !== null) await letGo(prewarmed);
}

async function letGo(prewarmed: PrewarmedProvider): Promise<void> {
  prewarmed.release();
  // No thread was asked for: nothing in it to let finish.
  await prewarmed.session.stop(0);
}
