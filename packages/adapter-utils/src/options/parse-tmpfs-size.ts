import { SandboxError } from "@paperclipai/errors";

/** The smallest cap accepted: one page (tmpfs rounds a size up to whole pages). */
export const MIN_TMPFS_SIZE_BYTES = 4096;

/**
 * `tmpfsSizeBytes`, validated (pure): `null` when unset (no cap, as upstream), else a whole
 * number of bytes from one page up to `Number.MAX_SAFE_INTEGER`. Anything else (a string,
 * a fraction, zero, a negative, NaN, Infinity) throws `ERR_SANDBOX_TMPFS_SIZE`: a cap that
 * bwrap would read as something else, or tmpfs as "no limit" (`size=0`), must not pass.
 */
export function parseTmpfsSize(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < MIN_TMPFS_SIZE_BYTES) {
    throw new SandboxError(
      "ERR_SANDBOX_TMPFS_SIZE",
      `Sandbox tmpfsSizeBytes must be a whole number of bytes from ${MIN_TMPFS_SIZE_BYTES} to ${Number.MAX_SAFE_INTEGER}; got ${describe(value)}.`,
      { details: { value: describe(value), min: MIN_TMPFS_SIZE_BYTES, max: Number.MAX_SAFE_INTEGER } },
    );
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  return typeof value;
}
