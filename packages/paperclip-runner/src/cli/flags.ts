import { RunnerError } from "@paperclipai/errors";
import { type FlagDefinition, RUNNERD_FLAGS, type RunnerdFlagName } from "./flag-definitions.js";

/** The command line, parsed. Reading a flag is where its errors are thrown. */
export interface ParsedFlags<Name extends string = RunnerdFlagName> {
  /** Whether the flag occurs at all (with or without a value). */
  has(name: Name): boolean;
  /** The value of the first occurrence, or `undefined`; throws `missing value for ${name}` when it has none. */
  value(name: Name): string | undefined;
  /** Like `value`, but throws `missing required argument ${name}` when absent and `invalid ${name}: must not be empty` when empty. */
  required(name: Name): string;
  /** Every value of a repeatable flag, in order. */
  all(name: Name): readonly string[];
  /** Throws the first `missing value` among the flags given; unread flags are checked too. */
  assertValuesPresent(): void;
  /** Names of unknown flags, in order (their values are never kept: they could be secrets). */
  readonly unknown: readonly string[];
  /** How many arguments were neither flags nor flag values (ignored, never echoed). */
  readonly strayArguments: number;
  /** How many arguments were given in all. */
  readonly count: number;
}

/** `missing required argument ${name}` (ERR_RUNNER_MISSING_ARGUMENT). */
export function missingArgument(name: string): RunnerError {
  return new RunnerError("ERR_RUNNER_MISSING_ARGUMENT", `missing required argument ${name}`, {
    details: { name },
  });
}

/** `missing value for ${name}` (ERR_RUNNER_MISSING_VALUE). */
export function missingValue(name: string): RunnerError {
  return new RunnerError("ERR_RUNNER_MISSING_VALUE", `missing value for ${name}`, { details: { name } });
}

/** `invalid ${name}: ${reason}` (ERR_RUNNER_INVALID_ARGUMENT). Never put the value in `reason`. */
export function invalidArgument(name: string, reason: string): RunnerError {
  return new RunnerError("ERR_RUNNER_INVALID_ARGUMENT", `invalid ${name}: ${reason}`, {
    details: { name, reason },
  });
}

/**
 * Parses upstream's argv: `--name value` pairs, the first occurrence wins,
 * repeatable flags collect every value, boolean flags stand alone. A value
 * flag followed by nothing, or by another known flag, has no value. An unknown
 * flag takes the next argument as its value unless that one starts with `--`.
 * Parsing never throws, so `--diagnostics-directory` can be read even when
 * another flag is malformed.
 */
export function parseFlags<Name extends string = RunnerdFlagName>(
  argv: readonly string[],
  definitions: Readonly<Record<Name, FlagDefinition>> = RUNNERD_FLAGS as Readonly<
    Record<string, FlagDefinition>
  >,
): ParsedFlags<Name> {
  const table = definitions as Readonly<Record<string, FlagDefinition>>;
  const values = new Map<string, (string | undefined)[]>();
  const unknown: string[] = [];
  let strayArguments = 0;
  const isKnown = (arg: string | undefined): boolean => arg !== undefined && Object.hasOwn(table, arg);
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    const definition = Object.hasOwn(table, arg) ? table[arg] : undefined;
    const next = argv[index + 1];
    const occurrences = values.get(arg) ?? [];
    if (definition === undefined) {
      if (arg.startsWith("--")) {
        unknown.push(arg);
        if (next !== undefined && !next.startsWith("--")) index += 1;
      } else {
        strayArguments += 1;
      }
      continue;
    }
    if (definition.kind === "boolean") {
      occurrences.push(undefined);
    } else if (next === undefined || (definition.kind === "value" && isKnown(next))) {
      occurrences.push(undefined);
    } else {
      occurrences.push(next);
      index += 1;
    }
    values.set(arg, occurrences);
  }

  const firstValue = (name: string): string | undefined => {
    const occurrences = values.get(name);
    if (occurrences === undefined) return undefined;
    const first = occurrences[0];
    if (first === undefined) throw missingValue(name);
    return first;
  };

  return {
    has: (name) => values.has(name),
    value: firstValue,
    required(name) {
      const value = firstValue(name);
      if (value === undefined) throw missingArgument(name);
      if (value === "") throw invalidArgument(name, "must not be empty");
      return value;
    },
    all(name) {
      const occurrences = values.get(name) ?? [];
      if (occurrences.includes(undefined)) throw missingValue(name);
      return occurrences as string[];
    },
    assertValuesPresent() {
      for (const [name, occurrences] of values) {
        if (table[name]?.kind === "boolean") continue;
        if (
          table[name]?.kind === "repeatable" ? occurrences.includes(undefined) : occurrences[0] === undefined
        ) {
          throw missingValue(name);
        }
      }
    },
    unknown,
    strayArguments,
    count: argv.length,
  };
}
