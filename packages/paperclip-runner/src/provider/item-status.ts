/**
 * Pure: a provider item's status as upstream's runner maps it, for `item.*` and
 * `tool.execution.*` alike and on start as on completion (observed with its binary,
 * `test/opencode-bridge-upstream.test.ts`): `failed` and `error` fail, `cancelled` and
 * `canceled` cancel, `interrupted` and `aborted` interrupt; anything else (`declined`,
 * `inProgress`, an unknown word, none) is the phase's own status: running on start,
 * completed on completion.
 */
export function itemStatus(status: unknown, started: boolean): string {
  switch (status) {
    case "failed":
    case "error":
      return "failed";
    case "cancelled":
    case "canceled":
      return "cancelled";
    case "interrupted":
    case "aborted":
      return "interrupted";
    default:
      return started ? "running" : "completed";
  }
}
