import type { ProviderEvent } from "./codex-notification-events.js";

export interface StartupContext {
  /** How many provider processes this session has tried to start, this one included. */
  readonly generation: number;
  /** The command that made the runner start the provider (null when none did). */
  readonly command: {
    readonly commandId: string;
    readonly commandType: string;
    readonly controllerSeq: number;
  } | null;
  readonly configurationFingerprint: string;
  readonly launchId: string;
  readonly origin: Readonly<Record<string, string>>;
  /** `ensure` for a new thread, `restore` when a restarted runner resumes one. */
  readonly trigger: "ensure" | "restore";
  readonly requestedThreadId: string | null;
}

/**
 * Pure: upstream's provider startup ownership facts (`harness.diagnostic
 * provider_startup_ownership`, `paperclip.provider_startup.v1`): the intent to
 * start, then the spawned process with its group.
 */
export function startupFacts(context: StartupContext, processId: number): ProviderEvent[] {
  const fact = (phase: "intent" | "spawned", pid: number | null): ProviderEvent => ({
    eventType: "harness.diagnostic",
    priority: 0,
    payload: {
      code: "provider_startup_ownership",
      startup: {
        attemptedProcessGeneration: context.generation,
        authenticatedThreadId: null,
        command: context.command,
        configurationFingerprint: context.configurationFingerprint,
        directChildExitObserved: false,
        exitCode: null,
        failedStage: null,
        launchId: context.launchId,
        origin: context.origin,
        phase,
        processGroupId: pid,
        processId: pid,
        processTreeRetired: false,
        requestedThreadId: context.requestedThreadId,
        schema: "paperclip.provider_startup.v1",
        signal: null,
        trigger: context.trigger,
      },
    },
  });
  return [fact("intent", null), fact("spawned", processId)];
}
