import { fastCheckSeed } from "@paperclipai/test-support/fast-check-seed";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAlnum, isBase64Char, isToken68Char } from "./char-classes.js";
import { redactAndTruncate } from "./redact-and-truncate.js";
import { REDACTED, redactSecrets } from "./redact-secrets.js";
import { TOKEN_FORMATS } from "./rules/token-formats.js";
import type { Shape } from "./rules/token-shape.js";

it("draws from the seed FC_SEED asks for (the setup file reaches this package's fast-check)", () => {
  expect(fc.readConfigureGlobal().seed).toBe(fastCheckSeed());
});

// Well-formed means a UTF-8 round trip gives the same string back (no lone surrogates).
const isWellFormed = (text: string): boolean => Buffer.from(text, "utf8").toString("utf8") === text;

const alphabetOf = (test: (code: number) => boolean): string[] =>
  Array.from({ length: 128 }, (_, code) => code)
    .filter(test)
    .map((code) => String.fromCharCode(code));
const stringOf = (alphabet: readonly string[], minLength: number, maxLength: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength, maxLength }).map((chars) => chars.join(""));
const ALNUM = alphabetOf(isAlnum);
const DIGITS = "0123456789".split("");
/** A credential-like value: letters and digits with at least one digit. */
const credential = (min = 8, max = 40) =>
  fc
    .tuple(stringOf(ALNUM, min - 1, max - 1), fc.constantFrom(...DIGITS))
    .map(([body, digit]) => `${body}${digit}`);

/** A generated secret, the text that carries it, and the parts that must survive around it. */
interface Planted {
  readonly text: string;
  readonly secret: string;
  readonly kept?: string;
}

// Operator text around the secret: words, counts, ids, punctuation and non-ASCII, but no
// secret of its own.
const noise = fc
  .array(
    fc.constantFrom(
      "request",
      "failed",
      "status=403",
      "input_tokens=1234",
      "max_tokens: 4096",
      "retry",
      "ok",
      "(x)",
      "-",
      "|",
      "é",
      "日本",
      "😀",
      "sha256:e3b0c442",
      "the token was rejected",
      "Bearer authentication",
      '{"status":"ok"}',
    ),
    { maxLength: 30 },
  )
  .map((words) => words.join(" "));
const gap = fc.constantFrom(" ", "\n", "; ", ", ", "\t", " (", ") ", "\r\n");

function neverSurvives(planted: fc.Arbitrary<Planted>, runs = 400): void {
  fc.assert(
    fc.property(noise, gap, planted, gap, noise, (before, gapBefore, secret, gapAfter, after) => {
      const output = redactSecrets(`${before}${gapBefore}${secret.text}${gapAfter}${after}`);
      expect(output).not.toContain(secret.secret);
      expect(output).toContain(REDACTED);
      if (secret.kept !== undefined) expect(output).toContain(secret.kept);
    }),
    { numRuns: runs },
  );
}

/** A token of `shape`: each run between its minimum and a little more (or its exact length). */
function tokenOfShape(shape: Shape): fc.Arbitrary<string> {
  return fc
    .tuple(
      ...shape.map((part) =>
        typeof part === "string"
          ? fc.constant(part)
          : stringOf(alphabetOf(part.chars), part.min, Math.min(part.max, part.min + 24)),
      ),
    )
    .map((parts) => parts.join(""));
}

// Thousands of generated cases per test: a loaded CI machine gets a wide budget.
describe("redactSecrets: a generated secret of each rule's shape never survives in noisy text", {
  timeout: 60_000,
}, () => {
  it.each(TOKEN_FORMATS.map((format) => [format.provider, format] as const))(
    "token format: %s",
    (_name, format) => {
      neverSurvives(
        fc
          .tuple(
            tokenOfShape(format.lead ?? []),
            fc.constantFrom(...format.prefixes),
            tokenOfShape(format.body),
          )
          .map(([lead, prefix, body]) => ({
            text: `${lead}${prefix}${body}`,
            secret: `${lead}${prefix}${body}`,
          })),
        100,
      );
    },
  );

  it("PEM private key blocks, terminated or not", () => {
    neverSurvives(
      fc
        .tuple(fc.constantFrom("RSA ", "EC ", "OPENSSH ", "ENCRYPTED ", ""), credential(16, 64), fc.boolean())
        .map(([kind, body, terminated]) => ({
          text: `-----BEGIN ${kind}PRIVATE KEY-----\n${body}${terminated ? `\n-----END ${kind}PRIVATE KEY-----` : ""}`,
          secret: body,
        })),
    );
  });

  it("passwords inside URLs, keeping scheme, user and host", () => {
    const passwordChars = alphabetOf(
      (code) => isAlnum(code) || "-._~!$&'()*+,;=%".includes(String.fromCharCode(code)),
    );
    neverSurvives(
      fc
        .tuple(
          fc.constantFrom("https", "postgres", "mongodb+srv", "redis", "amqp", "mysql", "git+ssh"),
          stringOf(ALNUM, 0, 12),
          fc.tuple(stringOf(passwordChars, 5, 30), fc.constantFrom(...DIGITS)).map(([a, b]) => `${a}${b}`),
          fc.constantFrom(
            "db.internal:5432/app",
            "example.com/path?x=1",
            "127.0.0.1:6379/0",
            "cluster0.mongodb.net",
          ),
        )
        .map(([scheme, user, password, host]) => ({
          text: `${scheme}://${user}:${password}@${host}`,
          secret: password,
          kept: `${scheme}://${user}:`,
        })),
    );
  });

  it("webhook URLs, keeping the host", () => {
    neverSurvives(
      fc
        .tuple(
          fc.constantFrom(
            "https://hooks.slack.com/services/",
            "https://discord.com/api/webhooks/",
            "https://acme.webhook.office.com/webhookb2/",
          ),
          credential(20, 40),
          credential(20, 40),
        )
        .map(([base, id, secret]) => ({ text: `${base}${id}/${secret}`, secret, kept: base })),
    );
  });

  it("Bearer and Basic credentials, keeping the scheme", () => {
    const token68 = alphabetOf(isToken68Char);
    neverSurvives(
      fc
        .tuple(
          fc.constantFrom("Bearer", "Basic", "BEARER", "bearer"),
          fc.tuple(stringOf(token68, 5, 60), fc.constantFrom(...DIGITS)).map(([a, b]) => `${b}${a}${b}`),
        )
        .map(([scheme, value]) => ({ text: `${scheme} ${value}`, secret: value, kept: scheme })),
    );
  });

  it("values of sensitive keys in every form, keeping the key", () => {
    const key = fc.constantFrom(
      "password",
      "DB_PASSWORD",
      "OPENAI_API_KEY",
      "api-key",
      "client_secret",
      "x-auth-token",
      "Cookie",
      "proxyAuthorization",
      "db_passwd",
      "session_ticket",
      "AccountKey",
      "accessToken",
      "aws_secret_access_key",
      "private_key",
      "ConnectionString",
    );
    const form = fc.constantFrom(
      (k: string, v: string) => `${k}=${v}`,
      (k: string, v: string) => `${k}: ${v}`,
      (k: string, v: string) => `${k} = ${v}`,
      (k: string, v: string) => `${k} ${v}`,
      (k: string, v: string) => `--${k} ${v}`,
      (k: string, v: string) => `--${k}=${v}`,
      (k: string, v: string) => `"${k}":"${v}"`,
      (k: string, v: string) => `"${k}" : "${v}"`,
      (k: string, v: string) => `${k}='${v}'`,
      (k: string, v: string) => JSON.stringify(`{"${k}":"${v}"}`),
      (k: string, v: string) => JSON.stringify(JSON.stringify({ [k]: v })),
    );
    neverSurvives(
      fc.tuple(key, form, credential()).map(([name, write, value]) => ({
        text: write(name, value),
        secret: value,
        kept: name,
      })),
      1000,
    );
  });

  it("command-line user passwords, keeping the user", () => {
    neverSurvives(
      fc
        .tuple(
          fc.constantFrom("-u ", "--user ", "--user=", "--proxy-user "),
          stringOf(ALNUM, 1, 12),
          credential(),
        )
        .map(([flag, user, password]) => ({
          text: `curl ${flag}${user}:${password} https://example.com`,
          secret: password,
          kept: `${flag}${user}:`,
        })),
    );
  });

  it("registry auth blobs", () => {
    const base64 = alphabetOf(isBase64Char);
    neverSurvives(
      fc
        .tuple(
          fc.constantFrom(
            (v: string) => `"auth": "${v}"`,
            (v: string) => `_auth=${v}`,
            (v: string) => `"auth":"${v}"`,
          ),
          fc.tuple(stringOf(base64, 11, 60), fc.constantFrom(...DIGITS)).map(([a, b]) => `${a}${b}`),
          fc.constantFrom("", "=", "=="),
        )
        .map(([write, blob, padding]) => ({ text: write(`${blob}${padding}`), secret: blob })),
    );
  });
});

describe("redactSecrets: output properties", { timeout: 60_000 }, () => {
  const anyText = fc.oneof(
    fc.string({ unit: "binary", maxLength: 300 }),
    fc
      .array(
        fc.constantFrom(
          "token",
          "password",
          "=",
          ":",
          " ",
          '"',
          "\\",
          '\\"',
          "Bearer ",
          "sk-",
          "ghp_",
          "eyJ",
          ".",
          "-----BEGIN PRIVATE KEY-----",
          "://",
          "@",
          "abc123",
          "AKIA",
          "\n",
          "[REDACTED]",
          "{",
          "}",
          "'",
        ),
        { maxLength: 60 },
      )
      .map((parts) => parts.join("")),
  );

  it("is idempotent", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const once = redactSecrets(text);
        expect(redactSecrets(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it("returns well-formed UTF-8 within the byte bound", () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 14, max: 300 }), (text, maxBytes) => {
        const { text: bounded } = redactAndTruncate(text, maxBytes);
        expect(isWellFormed(bounded)).toBe(true);
        expect(Buffer.byteLength(bounded)).toBeLessThanOrEqual(maxBytes);
      }),
      { numRuns: 2000 },
    );
  });
});
