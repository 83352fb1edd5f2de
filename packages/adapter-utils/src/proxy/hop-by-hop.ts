const HOP_BY_HOP = new Set([
  "connection",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * Removes hop-by-hop headers from a raw header list (`[name, value, name, value…]`,
 * as `IncomingMessage.rawHeaders`): the fixed RFC 9110 set plus every header named
 * in `Connection` or `Proxy-Connection`, except those of `unlistable` (lowercase). Name case
 * and order are kept.
 */
export function stripHopByHopHeaders(
  rawHeaders: readonly string[],
  unlistable: readonly string[] = [],
): string[] {
  const drop = new Set(HOP_BY_HOP);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (name !== "connection" && name !== "proxy-connection") continue;
    for (const token of rawHeaders[i + 1]!.split(",")) {
      const listed = token.trim().toLowerCase();
      if (listed && !unlistable.includes(listed)) drop.add(listed);
    }
  }
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!drop.has(rawHeaders[i]!.toLowerCase())) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}
