/**
 * The scripted harness's script: `steps` run once, in order, from the start;
 * `on[type]` runs each time the runner forwards a command of that type. A command
 * with no `on` handler is queued for the next `waitFor` of its type.
 */
export interface FakeScript {
  /** Every command received is appended here as one JSON line: the observable side effect. */
  readonly commandLog: string | null;
  /** Keep running on SIGTERM, so the runner has to escalate to SIGKILL. */
  readonly ignoreSigterm: boolean;
  /** Keep running when stdin closes (a harness that breaks that rule of the protocol). */
  readonly ignoreStdinEof: boolean;
  readonly steps: readonly FakeStep[];
  readonly on: Readonly<Record<string, readonly FakeStep[]>>;
}

export type FakeStep =
  | { readonly ready: Record<string, unknown> }
  /** `{ eventType, turnId?, itemId?, payload? }`: lifted by the runner to a PRP event. */
  | { readonly event: Record<string, unknown> }
  | { readonly request: { readonly requestId: string } & Record<string, unknown> }
  | { readonly result: unknown }
  /** A terminal proposal (any object; upstream's shape is `paperclip.prp.terminal.v1`). */
  | { readonly terminal: Record<string, unknown> }
  | { readonly log: string }
  | { readonly diagnostic: Record<string, unknown> }
  | { readonly waitFor: string }
  | { readonly sleep: number }
  | { readonly exit: number }
  | { readonly crash: "SIGKILL" | "SIGSEGV" | "SIGABRT" | "SIGTERM" }
  | { readonly stdout: string }
  | { readonly stderr: string }
  | { readonly oversizedStdout: number }
  | { readonly oversizedStderr: number }
  | { readonly spawnSleeper: { readonly pidFile: string; readonly ms: number } }
  | { readonly appendFile: { readonly path: string; readonly text: string } }
  | { readonly emitEnv: true }
  /** Writes `count` copies of the event as fast as the pipe takes them. */
  | { readonly eventBurst: { readonly count: number; readonly event: Record<string, unknown> } };

export type FakeScriptParse =
  | { readonly ok: true; readonly script: FakeScript }
  | { readonly ok: false; readonly reason: string };

const CRASH_SIGNALS = ["SIGKILL", "SIGSEGV", "SIGABRT", "SIGTERM"];

/** Pure: validates a parsed script file; the reason names the first bad place. */
export function parseFakeScript(value: unknown): FakeScriptParse {
  if (!isObject(value)) return fail("the script must be a JSON object");
  const commandLog = value.commandLog ?? null;
  if (commandLog !== null && typeof commandLog !== "string") return fail("commandLog must be a path string");
  const ignoreSigterm = value.ignoreSigterm ?? false;
  if (typeof ignoreSigterm !== "boolean") return fail("ignoreSigterm must be a boolean");
  const ignoreStdinEof = value.ignoreStdinEof ?? false;
  if (typeof ignoreStdinEof !== "boolean") return fail("ignoreStdinEof must be a boolean");
  const steps = parseSteps(value.steps ?? [], "steps");
  if (typeof steps === "string") return fail(steps);
  const onValue = value.on ?? {};
  if (!isObject(onValue)) return fail("on must be an object of command type to steps");
  const on: Record<string, readonly FakeStep[]> = {};
  for (const [type, list] of Object.entries(onValue)) {
    const parsed = parseSteps(list, `on[${JSON.stringify(type)}]`);
    if (typeof parsed === "string") return fail(parsed);
    on[type] = parsed;
  }
  return { ok: true, script: { commandLog, ignoreSigterm, ignoreStdinEof, steps, on } };
}

function parseSteps(value: unknown, where: string): FakeStep[] | string {
  if (!Array.isArray(value)) return `${where} must be an array of steps`;
  const steps: FakeStep[] = [];
  for (const [index, step] of value.entries()) {
    const reason = stepProblem(step);
    if (reason !== null) return `${where}[${index}]: ${reason}`;
    steps.push(step as FakeStep);
  }
  return steps;
}

function stepProblem(step: unknown): string | null {
  if (!isObject(step)) return "a step must be an object with one key";
  const keys = Object.keys(step);
  if (keys.length !== 1) return "a step must have exactly one key";
  const key = keys[0] as string;
  const arg = step[key];
  switch (key) {
    case "ready":
    case "diagnostic":
      return isObject(arg) ? null : `${key} takes an object`;
    case "event":
      return isObject(arg) && typeof arg.eventType === "string"
        ? null
        : "event takes an object with an eventType (a PRP event type)";
    case "request":
      return isObject(arg) && typeof arg.requestId === "string" && arg.requestId !== ""
        ? null
        : "request takes an object with a requestId";
    case "result":
      return null;
    case "terminal":
      return isObject(arg) ? null : "terminal takes an object";
    case "log":
    case "stdout":
    case "stderr":
    case "waitFor":
      return typeof arg === "string" ? null : `${key} takes a string`;
    case "sleep":
    case "oversizedStdout":
    case "oversizedStderr":
      return isCount(arg) ? null : `${key} takes a non-negative integer`;
    case "exit":
      return isCount(arg) && arg <= 255 ? null : "exit takes an exit code 0..255";
    case "crash":
      return typeof arg === "string" && CRASH_SIGNALS.includes(arg)
        ? null
        : `crash takes one of ${CRASH_SIGNALS.join(", ")}`;
    case "spawnSleeper":
      return isObject(arg) && typeof arg.pidFile === "string" && isCount(arg.ms)
        ? null
        : "spawnSleeper takes { pidFile, ms }";
    case "appendFile":
      return isObject(arg) && typeof arg.path === "string" && typeof arg.text === "string"
        ? null
        : "appendFile takes { path, text }";
    case "eventBurst":
      return isObject(arg) && isCount(arg.count) && isObject(arg.event)
        ? null
        : "eventBurst takes { count, event }";
    case "emitEnv":
      return arg === true ? null : "emitEnv takes true";
    default:
      return `unknown step ${JSON.stringify(key)}`;
  }
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function fail(reason: string): FakeScriptParse {
  return { ok: false, reason };
}
