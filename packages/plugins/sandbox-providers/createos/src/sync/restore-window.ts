/**
 * Test-only, internal (not exported from the package): the sweep's windows in putting a dead
 * worker's tree back as its target, awaited so a test can act in exactly one of them.
 * `afterClaim`: once the tree is claimed, before the sweep looks for running syncs again (a
 * test starts one there); `beforePlace`: once it decided to put the tree back and checked that
 * the target is missing, before it moves the tree (a test promotes the same target there).
 */
export const restoreWindow: {
  afterClaim: (() => Promise<void> | void) | undefined;
  beforePlace: (() => Promise<void> | void) | undefined;
} = {
  afterClaim: undefined,
  beforePlace: undefined,
};
