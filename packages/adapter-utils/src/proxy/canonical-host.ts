import { isIPv4, isIPv6 } from "node:net";
import { toASCII } from "tr46";
import { endsInIpv4Number, parseWhatwgIpv4 } from "./whatwg-ipv4.js";

/**
 * A host in the one form rules and targets are compared in: IPv4 dotted quad,
 * compressed lowercase IPv6 (IPv4-mapped addresses become IPv4), or a lowercase
 * ASCII (punycode) domain without a trailing dot. `key` is unique across kinds,
 * because a dotted-decimal domain would have been parsed as IPv4 and only IPv6 has colons.
 */
export type CanonicalHost =
  | { readonly kind: "ipv4"; readonly key: string }
  | { readonly kind: "ipv6"; readonly key: string }
  | { readonly kind: "domain"; readonly key: string };

const MAX_DOMAIN_LENGTH = 253;
/**
 * UTS #46 maps an ASCII host to one of the same length (case only; a valid `xn--` label
 * comes back as itself), so an ASCII host longer than a domain with its trailing dot can
 * never be one, nor a WHATWG IPv4 address worth reading (only leading zeros make those
 * long). It is refused before IDNA, whose Punycode steps cost time quadratic in a label's
 * length: a 15 KB `xn--` label in one CONNECT line took the host process's only thread
 * about 90 ms, and a program sending them stalled every run's proxy.
 */
const MAX_ASCII_HOST_LENGTH = MAX_DOMAIN_LENGTH + 1;
const NON_ASCII = /[^\u0000-\u007f]/;
// `%` would be percent-decoded by URL host parsing and smuggle in characters we reject here.
const FORBIDDEN_DOMAIN_CHARACTERS = /[\u0000-\u0020%/\\?#@:[\]<>^|"'`{}*,;=+!$&()~\u007f]/;
const ASCII_DOMAIN = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;
const MAPPED_IPV4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;
/**
 * The WHATWG URL Standard's domain-to-ASCII settings (not strict), applied by one
 * pinned UTS #46 implementation: `node:url`'s `domainToASCII` changes with the
 * runtime (Node 24 accepts `xn--zz.com`, whose Punycode is invalid; Node 20 and 22
 * refuse it), and a rule must mean the same on every Node.
 */
const IDNA_OPTIONS = {
  checkHyphens: false,
  checkBidi: true,
  checkJoiners: true,
  useSTD3ASCIIRules: false,
  transitionalProcessing: false,
  verifyDNSLength: false,
  ignoreInvalidPunycode: false,
} as const;

function canonicalIpv6(address: string): CanonicalHost | null {
  let serialized: string;
  try {
    serialized = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null; // zone ids (`fe80::1%eth0`) and other forms URL hosts cannot carry
  }
  const mapped = MAPPED_IPV4.exec(serialized);
  if (mapped) {
    const high = Number.parseInt(mapped[1]!, 16);
    const low = Number.parseInt(mapped[2]!, 16);
    return { kind: "ipv4", key: `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}` };
  }
  return { kind: "ipv6", key: serialized };
}

/**
 * Canonicalizes a host as written in a rule, a request URL or a CONNECT target.
 * Accepts `[v6]`, bare IPv6, IPv4 (including the numeric forms WHATWG URL accepts,
 * such as `127.1`), and domains (Unicode or punycode, any case, one trailing dot).
 * Returns `null` for anything that is not exactly one host.
 */
export function canonicalizeHost(raw: string): CanonicalHost | null {
  if (raw.startsWith("[") && raw.endsWith("]")) {
    const inner = raw.slice(1, -1);
    return isIPv6(inner) ? canonicalIpv6(inner) : null;
  }
  if (isIPv6(raw)) return canonicalIpv6(raw);
  // A strict dotted quad is already canonical.
  if (isIPv4(raw)) return { kind: "ipv4", key: raw };
  if (raw.length === 0 || FORBIDDEN_DOMAIN_CHARACTERS.test(raw)) return null;
  if (raw.length > MAX_ASCII_HOST_LENGTH && !NON_ASCII.test(raw)) return null;
  let ascii = toASCII(raw, IDNA_OPTIONS);
  if (ascii === null) return null;
  if (endsInIpv4Number(ascii)) {
    const address = parseWhatwgIpv4(ascii);
    return address === null ? null : { kind: "ipv4", key: address };
  }
  if (ascii.endsWith(".")) ascii = ascii.slice(0, -1);
  if (ascii.length === 0 || ascii.length > MAX_DOMAIN_LENGTH) return null;
  return ASCII_DOMAIN.test(ascii) ? { kind: "domain", key: ascii } : null;
}

/** The host as it appears in an authority: IPv6 in brackets. */
export function formatCanonicalHost(host: CanonicalHost): string {
  return host.kind === "ipv6" ? `[${host.key}]` : host.key;
}
