/**
 * Test-only, internal (not exported from the package): called with an entry's archive path
 * (`./a/b`) once the entry passed its check and before any byte of it is read, so a test can
 * swap the entry in exactly that window instead of racing for it.
 */
export const packWindow: { afterCheck: ((path: string) => void) | undefined } = { afterCheck: undefined };
