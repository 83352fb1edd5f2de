// Deterministic fake credentials: the same corpus on every run, and no real-looking secret
// written literally into the repository.

export const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const LOWER_HEX = "0123456789abcdef";
export const BASE64URL = `${ALNUM}-_`;
export const BASE64 = `${ALNUM}+/`;
export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A small seeded generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seededRandom(14);

/** `length` characters from `alphabet`, always with at least one digit when the alphabet has digits. */
export function fake(alphabet: string, length: number): string {
  let text = "";
  for (let index = 0; index < length; index += 1) text += alphabet[Math.floor(random() * alphabet.length)];
  const digits = alphabet.replace(/[^0-9]/g, "");
  if (digits.length > 0 && !/[0-9]/.test(text)) text = `${text.slice(0, -1)}${digits[0]}`;
  return text;
}

export const base64 = (text: string): string => Buffer.from(text).toString("base64");
export const base64url = (text: string): string => Buffer.from(text).toString("base64url");

/** A JWT of three segments with a real JSON header and payload. */
export function fakeJwt(): string {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(JSON.stringify({ sub: fake(ALNUM, 10), iat: 1_700_000_000 }));
  return `${header}.${payload}.${fake(BASE64URL, 43)}`;
}
