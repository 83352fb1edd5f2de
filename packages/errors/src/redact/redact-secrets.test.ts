import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact-secrets.js";
import { truncateUtf8 } from "./truncate-utf8.js";

// Well-formed means a UTF-8 round trip gives the same string back (no lone surrogates).
const isWellFormed = (text: string): boolean => Buffer.from(text, "utf8").toString("utf8") === text;

describe("redactSecrets: the spec's test vectors", () => {
  it.each([
    ["Bearer abcdefghijkl", "Bearer [REDACTED]"],
    ["request failed token secret-value", "request failed token [REDACTED]"],
    [
      "Use a secret manager for credential handling and bearer authentication.",
      "Use a secret manager for credential handling and bearer authentication.",
    ],
    [
      "Invalid API key: sk-proj-provider-secret; request rejected",
      "Invalid API key: [REDACTED]; request rejected",
    ],
    [
      "OPENAI_API_KEY first-secret; proxyAuthorization Basic dXNlcjpwYXNz",
      "OPENAI_API_KEY [REDACTED]; proxyAuthorization Basic [REDACTED]",
    ],
    ['password=abc"defg status=403', "password=[REDACTED] status=403"],
  ])("%s", (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it.each([
    ["with no separator", ""],
    ["with a space", " "],
  ])("redacts then bounds a 256 KiB message (%s before the padding)", (_label, separator) => {
    const input = `OPENAI_API_KEY=raw-secret Authorization: Bearer another-secret${separator}${"x".repeat(256 * 1024)}`;
    const { text, truncated } = truncateUtf8(redactSecrets(input), 65_536);
    expect(text).not.toContain("raw-secret");
    expect(text).not.toContain("another-secret");
    expect(text).toContain("[REDACTED]");
    expect(truncated).toBe(true);
    expect(text.endsWith("\u2026[truncated]")).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(65_536);
  });
});

describe("redactSecrets: each rule", () => {
  it("redacts a PEM private key block, terminated or not", () => {
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";
    expect(redactSecrets(`before ${key} after`)).toBe("before [REDACTED] after");
    expect(redactSecrets("x -----BEGIN PRIVATE KEY-----\nMIIE...")).toBe("x [REDACTED]");
  });

  it("redacts sk- and GitHub tokens only at a token start", () => {
    expect(redactSecrets("key sk-abcdefghijkl0 used")).toBe("key [REDACTED] used");
    expect(redactSecrets("task-abcdefghijklmnop")).toBe("task-abcdefghijklmnop");
    // A dash is not a name character: a token after one (a path or header part) is still a token.
    expect(redactSecrets("/cache/x-sk-abcdefghijkl0/data")).toBe("/cache/x-[REDACTED]/data");
    expect(redactSecrets("push with ghp_0123456789abcdefghijABCD done")).toBe("push with [REDACTED] done");
    expect(redactSecrets("github_pat_11ABCDEFG0123456789_abcdefghij")).toBe("[REDACTED]");
    expect(redactSecrets("ghp_short")).toBe("ghp_short");
  });

  it("redacts JWTs of three and five segments", () => {
    const jwt =
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    expect(redactSecrets(`got ${jwt} back`)).toBe("got [REDACTED] back");
    expect(redactSecrets(`jwe ${jwt}.abcdefghij.klmnopqrst end`)).toBe("jwe [REDACTED] end");
  });

  it("keeps the scheme and the key, redacts the credential", () => {
    expect(redactSecrets("Authorization: Bearer abc.def-123")).toBe("Authorization: Bearer [REDACTED]");
    expect(redactSecrets('{"api_key":"abc\\"def","x":1}')).toBe('{"api_key":"[REDACTED]","x":1}');
    expect(redactSecrets("run --token abcdef now")).toBe("run --token [REDACTED] now");
    expect(redactSecrets("DB_CONNECTION_STRING=postgres://u:p@h/db")).toBe(
      "DB_CONNECTION_STRING=postgres://u:[REDACTED]@h/db",
    );
    expect(redactSecrets("cookie: session=abc123; Path=/")).toBe("cookie: [REDACTED]; Path=/");
  });

  it("finds a key right after a key that held prose", () => {
    expect(redactSecrets("a secret token abc123 here")).toBe("a secret token [REDACTED] here");
  });

  it("is idempotent", () => {
    const once = redactSecrets("password=hunter2 Bearer abcdefghijkl sk-abcdefghijklmn");
    expect(redactSecrets(once)).toBe(once);
  });

  it("uses a custom replacement", () => {
    expect(redactSecrets("password=hunter2", { replacement: "***" })).toBe("password=***");
  });
});

const NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_".split("");
const nameChars = (min: number, max: number) =>
  fc.array(fc.constantFrom(...NAME_CHARS), { minLength: min, maxLength: max }).map((chars) => chars.join(""));
// A credential value: at least one digit, so that it is not mistaken for prose.
const credential = fc
  .tuple(nameChars(7, 40), fc.integer({ min: 0, max: 9 }))
  .map(([body, digit]) => `${body}${digit}`);

const secretShapes: fc.Arbitrary<{ text: string; secret: string }> = fc.oneof(
  credential.map((value) => ({ text: `sk-${value}abcd`, secret: `sk-${value}abcd` })),
  fc
    .tuple(fc.constantFrom("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"), nameChars(20, 50))
    .map(([prefix, body]) => ({ text: `${prefix}${body}`, secret: `${prefix}${body}` })),
  fc.tuple(nameChars(8, 30), nameChars(8, 30), nameChars(8, 30)).map(([a, b, c]) => {
    const jwt = `eyJ${a}.${b}.${c}`;
    return { text: jwt, secret: jwt };
  }),
  credential.map((value) => ({ text: `Bearer ${value}`, secret: value })),
  fc
    .tuple(
      fc.constantFrom(
        "password",
        "OPENAI_API_KEY",
        "api-key",
        "client_secret",
        "x-auth-token",
        "Cookie",
        "proxyAuthorization",
        "db_passwd",
        "credentials",
        "session_ticket",
      ),
      fc.constantFrom("=", ": ", " = ", " "),
      credential,
    )
    .map(([key, separator, value]) => ({ text: `${key}${separator}${value}`, secret: value })),
  fc.tuple(fc.constantFrom("token", "secret", "apiKey"), credential).map(([key, value]) => ({
    text: `{"${key}":"${value}"}`,
    secret: value,
  })),
  credential.map((value) => ({
    text: `-----BEGIN EC PRIVATE KEY-----\n${value}\n-----END EC PRIVATE KEY-----`,
    secret: value,
  })),
);
const noise = fc
  .array(
    fc.constantFrom("request", "failed", "status", "403", "retry", "at", "line", "ok", "(x)", "-", "|"),
    {
      maxLength: 40,
    },
  )
  .map((words) => words.join(" "));

describe("redactSecrets: properties", () => {
  it("never lets a generated secret of any rule's shape through", () => {
    fc.assert(
      fc.property(
        noise,
        secretShapes,
        noise,
        fc.constantFrom(" ", "\n", "; ", ", "),
        (before, shape, after, gap) => {
          const output = redactSecrets(`${before}${gap}${shape.text}${gap}${after}`);
          expect(output).not.toContain(shape.secret);
          expect(output).toContain("[REDACTED]");
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("returns well-formed UTF-8 within the byte bound after truncation", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 400 }),
        fc.integer({ min: 14, max: 300 }),
        (text, max) => {
          const { text: bounded } = truncateUtf8(redactSecrets(text), max);
          expect(isWellFormed(bounded)).toBe(true);
          expect(Buffer.byteLength(bounded)).toBeLessThanOrEqual(max);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("redactSecrets: adversarial input", () => {
  // Linear scanning: each of these 1 MiB inputs finishes well inside the test timeout
  // (a backtracking pattern took minutes on the second one).
  it.each([
    ["a.", "dotted names"],
    ["token.", "sensitive words joined by dots"],
    ["token ", "sensitive words as bare keys"],
    ["token:", "sensitive words as explicit keys"],
    ["eyJ", "JWT starts"],
    ["-eyJ", "JWT starts after dashes"],
    ["-sk-", "token prefixes after dashes"],
    ["Bearer ", "auth schemes"],
    ["-----BEGIN PRIVATE KEY-----", "unterminated PEM headers"],
  ])("handles 1 MiB of %j (%s)", (unit) => {
    const input = unit.repeat(Math.ceil((1024 * 1024) / unit.length));
    expect(typeof redactSecrets(input)).toBe("string");
  });

  it("leaves common prose with sensitive words alone", () => {
    for (const prose of [
      "Unexpected token } in JSON at position 5",
      "the token was rejected",
      "rotate the secret regularly",
    ]) {
      expect(redactSecrets(prose)).toBe(prose);
    }
  });
});
