/** The `detail` of command receipts: upstream's exact sentences, then ours for decisions upstream does not make. */
export const RECEIPT_DETAILS = {
  applied: "command applied",
  duplicate: "equivalent command already applied",
  reusedId: "commandId was reused with different data",
  notContiguous: "controllerSeq is not contiguous",
  unsupportedSchema: "unsupported command schema",
  alreadyPrepared: "run is already prepared",
  historyFull: "command history limit reached",
  indeterminate: "command was in flight when the runner stopped; it is not executed again",
  notImplemented: (type: string): string => `command ${type} is not implemented in Local runner`,
} as const;
