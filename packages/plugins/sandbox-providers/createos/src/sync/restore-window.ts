/**
 * Test-only, internal (not exported from the package): awaited once the sweep decided to put a
 * dead worker's tree back as its target and checked that the target is missing, before it moves
 * the tree, so a test can promote the same target in exactly that window.
 */
export const restoreWindow: { beforePlace: (() => Promise<void> | void) | undefined } = {
  beforePlace: undefined,
};
