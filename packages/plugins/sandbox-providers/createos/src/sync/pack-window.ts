/**
 * Test-only, internal (not exported from the package): hooks called with an entry's archive
 * path (`./a/b`) so a test can swap the entry in exactly one window instead of racing for it.
 * `beforeOpen`: the entry's type was judged, it is not yet opened for reading.
 * `afterCheck`: the entry passed its check, no byte of it is read yet.
 */
export const packWindow: {
  beforeOpen: ((path: string) => void) | undefined;
  afterCheck: ((path: string) => void) | undefined;
} = { beforeOpen: undefined, afterCheck: undefined };
