import type { Readable } from "node:stream";
import { finished } from "node:stream/promises";

/**
 * Ends a download that nothing will read: destroyed, it settles its attempt (the request is
 * aborted and its deadline cleared); waiting for its close makes sure that has happened before
 * the caller's failure is reported, rather than at the request's deadline.
 */
export async function abandonDownload(body: Readable): Promise<void> {
  body.destroy();
  await finished(body).catch(() => undefined);
}
