/**
 * The WHATWG URL Standard's IPv4 host parser, written out so every Node version
 * gives the same answer (each release of the runtime's URL parser may differ in
 * what reaches this step). A host whose last label is a number is an IPv4 address
 * or nothing: `127.1`, `0x7f.0.0.1` and `2130706433` are all 127.0.0.1, `foo.123`
 * and `256.1.1.1` are invalid.
 */

/** One label as a number: `0x`/`0X` hex, a leading `0` octal, else decimal; `null` if invalid. */
function parseIpv4Number(label: string): number | null {
  if (label === "") return null;
  let digits = label;
  let radix = 10;
  if (/^0x/i.test(digits)) {
    digits = digits.slice(2);
    radix = 16;
  } else if (digits.length >= 2 && digits.startsWith("0")) {
    digits = digits.slice(1);
    radix = 8;
  }
  if (digits === "") return 0;
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return null;
  return Number.parseInt(digits, radix);
}

function labelsOf(host: string): string[] {
  const labels = host.split(".");
  if (labels.length > 1 && labels[labels.length - 1] === "") labels.pop();
  return labels;
}

/** The standard's "ends in a number" check: is this host to be parsed as IPv4? */
export function endsInIpv4Number(host: string): boolean {
  const last = labelsOf(host).at(-1) ?? "";
  return /^[0-9]+$/.test(last) || parseIpv4Number(last) !== null;
}

/** The dotted quad of a host that ends in a number, or `null` when it is not a valid IPv4 address. */
export function parseWhatwgIpv4(host: string): string | null {
  const labels = labelsOf(host);
  if (labels.length > 4) return null;
  const numbers: number[] = [];
  for (const label of labels) {
    const value = parseIpv4Number(label);
    if (value === null) return null;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((value) => value > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  let address = last;
  numbers.forEach((value, index) => {
    address += value * 256 ** (3 - index);
  });
  return [address >>> 24, (address >>> 16) & 255, (address >>> 8) & 255, address & 255].join(".");
}
