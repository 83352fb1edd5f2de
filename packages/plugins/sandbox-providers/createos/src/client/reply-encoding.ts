import { CreateosError } from "@paperclipai/errors";
import type { CreateosOperation } from "./operation.js";

/**
 * Every request asks for replies as they are (`Accept-Encoding: identity`). fetch would
 * otherwise ask for gzip and deflate and decode them on its own, before any cap counts a
 * byte: a reply of a few hundred bytes, nested `gzip, gzip, gzip`, becomes gigabytes on the
 * host's disk (a synced file, or an archive past tar's own decompression-ratio check).
 */
export const ACCEPT_ENCODING = "identity";

/** True when a reply's `Content-Encoding` leaves its bytes as they are. */
export function isIdentityEncoding(value: string | null | undefined): boolean {
  if (value === null || value === undefined) return true;
  const text = value.trim().toLowerCase();
  return text === "" || text === "identity";
}

/** A successful reply encoded although the request asked for none: refused unread, not retried. */
export function encodedReplyError(operation: CreateosOperation): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_REPLY_ENCODED",
    `CreateOS reply is content-encoded during ${operation}; only unencoded replies are accepted.`,
    { details: { operation } },
  );
}
