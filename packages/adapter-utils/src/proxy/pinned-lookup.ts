import type { LookupFunction } from "node:net";
import type { ResolvedAddress } from "./resolve-target.js";

/**
 * A `lookup` for `net.connect`/`http.request` that answers with the addresses the
 * proxy already checked, whatever name it is asked about: the connection goes to a
 * checked address and no second DNS query can return a different one.
 * With `all` (Node's happy-eyeballs mode) every checked address is offered in order.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const first = addresses[0]!;
    if (options.all)
      callback(
        null,
        addresses.map(({ address, family }) => ({ address, family })),
      );
    else callback(null, first.address, first.family);
  };
}
