import { Validator } from "@cfworker/json-schema";

/** Validators by schema object: a run's tools are checked on every call, compiled once. */
const validators = new WeakMap<object, Validator | null>();

/**
 * Whether `input` satisfies the tool's JSON Schema (draft 2020-12, what a schema without
 * `$schema` means to upstream's validator). A schema that cannot be used denies every input:
 * the control plane never sees an input its schema was not checked against.
 */
export function inputMatchesSchema(schema: Record<string, unknown>, input: unknown): boolean {
  let validator = validators.get(schema);
  if (validator === undefined) {
    try {
      validator = new Validator(schema, "2020-12", true);
    } catch {
      validator = null;
    }
    validators.set(schema, validator);
  }
  if (validator === null) return false;
  try {
    return validator.validate(input).valid;
  } catch {
    // An unresolvable `$ref` surfaces only when the validator reaches it.
    return false;
  }
}
