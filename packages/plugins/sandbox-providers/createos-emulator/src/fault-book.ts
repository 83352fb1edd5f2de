import { readFileSync } from "node:fs";
import { CreateosError } from "@paperclipai/errors";
import type { Fault, FaultFiring, FaultPlan } from "./fault-types.js";
import { EMULATOR_ROUTES } from "./routes.js";
import type { EmulatorRoute } from "./types.js";

const KINDS: ReadonlySet<string> = new Set<Fault["kind"]>([
  "http-status",
  "drop-stream",
  "stall-stream",
  "duplicate-replay",
  "sequence-gap",
  "invalid-base64",
  "evict",
  "slow-stream",
  "lose-create-reply",
  "late-apply",
  "stale-state",
  "omit-exit",
  "short-file",
]);

function invalid(rule: number, reason: string): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_EMULATOR_FAULT_PLAN",
    `Invalid CreateOS emulator fault plan: ${reason}`,
    {
      details: { rule },
    },
  );
}

function checkCount(rule: number, name: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw invalid(rule, `rule ${rule}: ${name} must be a non-negative integer.`);
  }
}

function checkStatus(rule: number, value: unknown): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 100 || value > 599) {
    throw invalid(rule, `rule ${rule}: status must be an HTTP status from 100 to 599.`);
  }
}

/** Checks a plan that may come from JSON (the CLI) as strictly as the TypeScript type does. */
export function validateFault(fault: unknown, rule: number): Fault {
  if (typeof fault !== "object" || fault === null) throw invalid(rule, `rule ${rule} must be an object.`);
  const record = fault as Record<string, unknown>;
  const kind = record.kind;
  if (typeof kind !== "string" || !KINDS.has(kind)) throw invalid(rule, `rule ${rule}: unknown kind.`);
  if (record.times !== "always") checkCount(rule, "times", record.times);
  for (const name of ["skip", "afterFrames", "frames", "delayMs", "retryAfterSeconds", "bytes"]) {
    checkCount(rule, name, record[name]);
  }
  for (const name of ["sandboxId", "processId"]) {
    if (record[name] !== undefined && typeof record[name] !== "string") {
      throw invalid(rule, `rule ${rule}: ${name} must be a string.`);
    }
  }
  if (kind === "http-status" || kind === "late-apply") {
    if (record.route !== "*" && !EMULATOR_ROUTES.includes(record.route as EmulatorRoute)) {
      throw invalid(rule, `rule ${rule}: unknown route.`);
    }
    if (kind === "http-status") checkStatus(rule, record.status);
  }
  if (kind === "late-apply" && record.delayMs === undefined)
    throw invalid(rule, `rule ${rule}: late-apply needs delayMs.`);
  if (kind === "stale-state") {
    if (record.route !== "sandbox.pause" && record.route !== "sandbox.resume")
      throw invalid(rule, `rule ${rule}: stale-state route must be "sandbox.pause" or "sandbox.resume".`);
    if (record.delayMs === undefined) throw invalid(rule, `rule ${rule}: stale-state needs delayMs.`);
  }
  if (kind === "lose-create-reply" && record.status !== undefined) checkStatus(rule, record.status);
  if (
    kind === "lose-create-reply" &&
    record.route !== undefined &&
    record.route !== "process.create" &&
    record.route !== "sandbox.create"
  )
    throw invalid(
      rule,
      `rule ${rule}: lose-create-reply route must be "process.create" or "sandbox.create".`,
    );
  if (kind === "evict" && record.mode !== "http-410" && record.mode !== "error-frame") {
    throw invalid(rule, `rule ${rule}: evict needs mode "http-410" or "error-frame".`);
  }
  if (
    kind === "drop-stream" &&
    record.mode !== undefined &&
    record.mode !== "reset" &&
    record.mode !== "end"
  ) {
    throw invalid(rule, `rule ${rule}: drop-stream mode must be "reset" or "end".`);
  }
  if (kind === "slow-stream" && record.delayMs === undefined)
    throw invalid(rule, `rule ${rule}: slow-stream needs delayMs.`);
  return fault as Fault;
}

export function validateFaultPlan(plan: unknown): FaultPlan {
  if (typeof plan !== "object" || plan === null || !Array.isArray((plan as { faults?: unknown }).faults)) {
    throw invalid(-1, "a plan is an object with a faults array.");
  }
  const faults = (plan as { faults: unknown[] }).faults.map((fault, index) => validateFault(fault, index));
  return { faults };
}

/** Reads a JSON fault plan (the CLI's `--faults FILE`). */
export function readFaultPlanFile(path: string): FaultPlan {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new CreateosError(
      "ERR_CREATEOS_EMULATOR_FAULT_PLAN",
      "Invalid CreateOS emulator fault plan: the file cannot be read as JSON.",
      { cause: error, details: { rule: -1, path } },
    );
  }
  return validateFaultPlan(parsed);
}

/** Where an event happens, for matching a rule's scope. */
export interface FaultContext {
  readonly route: EmulatorRoute;
  readonly sandboxId?: string;
  readonly processId?: string;
}

/** A rule armed for one event or one connection; `fire()` spends it, and is false when another event spent it first. */
export interface ArmedFault<F extends Fault> {
  readonly fault: F;
  fire(): boolean;
}

interface Rule {
  readonly fault: Fault;
  readonly index: number;
  seen: number;
  fired: number;
}

type FaultOfKind<K extends Fault["kind"]> = Extract<Fault, { kind: K }>;

/** The armed fault rules with their counters; shared by every request of one emulator. */
export class FaultBook {
  #rules: Rule[] = [];
  #next = 0;
  readonly #firings: FaultFiring[] = [];

  set(plan: FaultPlan): void {
    const { faults } = validateFaultPlan(plan);
    this.#rules = [];
    this.#next = 0;
    this.#firings.length = 0;
    for (const fault of faults) this.#push(fault);
  }

  add(fault: Fault): void {
    this.#push(validateFault(fault, this.#next));
  }

  clear(): void {
    this.#rules = [];
    this.#firings.length = 0;
  }

  fired(): readonly FaultFiring[] {
    return [...this.#firings];
  }

  /**
   * Counts this event against the first rule of `kind` in scope with capacity left and returns
   * it armed once its `skip` has passed. `accept` narrows further (for example the route).
   */
  arm<K extends Fault["kind"]>(
    kind: K,
    context: FaultContext,
    accept: (fault: FaultOfKind<K>) => boolean = () => true,
  ): ArmedFault<FaultOfKind<K>> | undefined {
    for (const rule of this.#rules) {
      const fault = rule.fault;
      if (fault.kind !== kind || !hasCapacity(rule)) continue;
      if (fault.sandboxId !== undefined && fault.sandboxId !== context.sandboxId) continue;
      if (fault.processId !== undefined && fault.processId !== context.processId) continue;
      if (!accept(fault as FaultOfKind<K>)) continue;
      rule.seen += 1;
      if (rule.seen <= (fault.skip ?? 0)) return undefined;
      return {
        fault: fault as FaultOfKind<K>,
        fire: () => {
          if (!hasCapacity(rule) || !this.#rules.includes(rule)) return false;
          rule.fired += 1;
          this.#firings.push({
            kind: fault.kind,
            route: context.route,
            rule: rule.index,
            ...(context.sandboxId === undefined ? {} : { sandboxId: context.sandboxId }),
            ...(context.processId === undefined ? {} : { processId: context.processId }),
          });
          return true;
        },
      };
    }
    return undefined;
  }

  #push(fault: Fault): void {
    this.#rules.push({ fault, index: this.#next, seen: 0, fired: 0 });
    this.#next += 1;
  }
}

function hasCapacity(rule: Rule): boolean {
  const times = rule.fault.times ?? 1;
  return times === "always" || rule.fired < times;
}
