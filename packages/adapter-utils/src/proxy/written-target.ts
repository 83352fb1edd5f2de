/** An absolute-form request-target's scheme, host and port exactly as the client wrote them. */
export interface WrittenTarget {
  readonly scheme: string;
  readonly host: string;
  readonly port: number | null;
}

// scheme "://" [userinfo "@"] host [":" port], up to the path, query or fragment.
const ABSOLUTE_FORM =
  /^([a-z][a-z0-9+.-]*):\/\/(?:[^/?#@]*@)?(\[[^\]/?#]*\]|[^/?#:[\]]*)(?::([0-9]*))?(?=[/?#]|$)/i;

/**
 * Reads the target before the runtime's URL parser does: which hosts that parser
 * accepts changes between Node versions (its IDNA step), and a proxy decision must
 * not, so the host is judged by the package's own canonicalisation first.
 * `null` when the target does not have this shape (the URL parser then decides).
 */
export function readWrittenTarget(target: string): WrittenTarget | null {
  const match = ABSOLUTE_FORM.exec(target);
  if (!match) return null;
  const port = match[3] ? Number(match[3]) : null;
  return { scheme: match[1]!.toLowerCase(), host: match[2]!, port };
}
