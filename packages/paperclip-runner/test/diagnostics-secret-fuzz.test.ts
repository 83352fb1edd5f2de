import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { fastCheckSeed } from "@paperclipai/test-support/fast-check-seed";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedRedactedDiagnostic, persistRunnerDiagnostic } from "../src/diagnostics/index.js";

it("draws from the seed FC_SEED asks for (the setup file reaches this package's fast-check)", () => {
  expect(fc.readConfigureGlobal().seed).toBe(fastCheckSeed());
});

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const NAME = `${LETTERS}${DIGITS}_`;
const TOKEN = `${NAME}-`;
const BASE64 = `${LETTERS}${DIGITS}+/`;
const CREDENTIAL = `${LETTERS}${DIGITS}._~+/=-`;
const VALUE = `${LETTERS}${DIGITS}_./+-`;

const chars = (alphabet: string, minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });

/** A secret as it appears in a message (`text`) and the part that must never be persisted (`secret`). */
interface Planted {
  readonly rule: string;
  readonly text: string;
  readonly secret: string;
}

const pem: fc.Arbitrary<Planted> = fc
  .record({
    type: fc.constantFrom("", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "),
    lines: fc.array(chars(BASE64, 64, 64), { minLength: 1, maxLength: 6 }),
    terminated: fc.boolean(),
  })
  .map(({ type, lines, terminated }) => {
    const body = lines.join("\n");
    const end = terminated ? `\n-----END ${type}PRIVATE KEY-----` : "";
    return { rule: "pem", text: `-----BEGIN ${type}PRIVATE KEY-----\n${body}${end}`, secret: body };
  });

const skToken: fc.Arbitrary<Planted> = chars(TOKEN, 12, 48).map((tail) => ({
  rule: "sk-",
  text: `sk-${tail}`,
  secret: `sk-${tail}`,
}));

const githubToken: fc.Arbitrary<Planted> = fc
  .tuple(fc.constantFrom("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"), chars(NAME, 20, 60))
  .map(([prefix, tail]) => ({ rule: "github", text: `${prefix}${tail}`, secret: `${prefix}${tail}` }));

const jwt: fc.Arbitrary<Planted> = fc
  .tuple(chars(TOKEN, 5, 40), chars(TOKEN, 8, 80), chars(TOKEN, 8, 60))
  .map(([header, payload, signature]) => {
    const token = `eyJ${header}.${payload}.${signature}`;
    return { rule: "jwt", text: token, secret: token };
  });

const authScheme: fc.Arbitrary<Planted> = fc
  .tuple(
    fc.constantFrom(
      "Bearer ",
      "Authorization: Bearer ",
      "Authorization: Basic ",
      "proxyAuthorization Basic ",
    ),
    chars(CREDENTIAL, 6, 60),
  )
  .map(([scheme, credential]) => ({ rule: "scheme", text: `${scheme}${credential}`, secret: credential }));

const SENSITIVE_KEYS = [
  "password",
  "passwd",
  "DB_PASSWORD",
  "api_key",
  "apiKey",
  "api-key",
  "apikey",
  "OPENAI_API_KEY",
  "proxyAuthorization",
  "authorization",
  "client_secret",
  "secret",
  "access_token",
  "token",
  "cookie",
  "set-cookie",
  "credential",
  "jwt",
  "private_key",
  "ticket",
  "connection_string",
];

// A value with a digit, so it is a credential in every form (a plain word after a bare space is prose).
const secretValue = fc
  .tuple(chars(VALUE, 4, 30), fc.constantFrom(...DIGITS), chars(VALUE, 3, 30))
  .map(([head, digit, tail]) => `${head}${digit}${tail}`);

const BARE_FORM = 4;

const keyAssignment: fc.Arbitrary<Planted> = fc
  .tuple(fc.constantFrom(...SENSITIVE_KEYS), fc.integer({ min: 0, max: BARE_FORM }), secretValue)
  // In the bare form a value starting with `--` is the next flag (`token --help`), by the rule.
  .filter(([, form, value]) => form !== BARE_FORM || !value.startsWith("--"))
  .map(([key, form, value]) => {
    const text = [
      `${key}=${value}`,
      `${key}: ${value}`,
      `"${key}":"${value}"`,
      `--${key} ${value}`,
      `${key} ${value}`,
    ][form] as string;
    return { rule: "key", text, secret: value };
  });

const planted = fc.oneof(pem, skToken, githubToken, jwt, authScheme, keyAssignment);

// Noise of any Unicode (multi-byte characters included), kept apart from the secrets by line breaks.
const noise = fc.string({ unit: "grapheme", maxLength: 400 });

const message = fc
  .record({
    leadBytes: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 70_000 }),
      fc.integer({ min: 65_000, max: 65_536 }),
    ),
    parts: fc.array(fc.tuple(noise, planted), { minLength: 1, maxLength: 8 }),
    tail: fc.integer({ min: 0, max: 200_000 }),
  })
  .map(({ leadBytes, parts, tail }) => {
    const lead = "lead ".repeat(Math.floor(leadBytes / 5));
    const body = parts.map(([text, secret]) => `${text}\n${secret.text}\n`).join("");
    const noiseOnly = `paperclip-runnerd: ${lead}\n${parts.map(([text]) => text).join("\n")}${"~".repeat(tail)}`;
    return {
      text: `paperclip-runnerd: ${lead}\n${body}${"~".repeat(tail)}`,
      secrets: parts.map(([, s]) => s),
      noiseOnly,
    };
  })
  // fast-check likes strings such as "valueOf" in both places: a secret that the noise
  // itself spells out is not a leak, so such cases are not generated.
  .filter(({ secrets, noiseOnly }) => secrets.every(({ secret }) => !noiseOnly.includes(secret)));

// A secret placed so that the 65 536-byte cut lands inside it: where cutting before redacting
// (upstream's order) leaves the secret's head, too short for any rule to recognise.
const straddling = fc
  .record({
    secret: planted,
    into: fc.integer({ min: 1, max: 200 }),
    tail: fc.integer({ min: 1, max: 5000 }),
  })
  .map(({ secret, into, tail }) => {
    const cutAt = 65_536 - Buffer.byteLength("\u2026[truncated]", "utf8");
    const offset = Math.min(into, secret.text.length - 1);
    const head = "paperclip-runnerd: harness failed ";
    const fill = " ".repeat(cutAt - offset - Buffer.byteLength(head, "utf8"));
    return { text: `${head}${fill}${secret.text} ${"~".repeat(tail)}`, secrets: [secret] };
  });

/** No secret, whole or as the head left in front of a cut, is in `output`. */
function assertNoLeak(output: string, secrets: readonly Planted[]): void {
  expect(Buffer.byteLength(output, "utf8")).toBeLessThanOrEqual(65_536);
  const beforeCut = output.endsWith("\u2026[truncated]")
    ? output.slice(0, -"\u2026[truncated]".length)
    : output;
  for (const { rule, secret } of secrets) {
    expect(output.includes(secret), `${rule} secret leaked`).toBe(false);
    for (let length = 8; length < secret.length; length += 1) {
      expect(beforeCut.endsWith(secret.slice(0, length)), `${rule} secret head left at the cut`).toBe(false);
    }
  }
}

describe("the secret-leak fuzz", () => {
  it("no generated secret of any redaction rule survives boundedRedactedDiagnostic", () => {
    fc.assert(
      fc.property(message, ({ text, secrets }) => assertNoLeak(boundedRedactedDiagnostic(text), secrets)),
      { numRuns: 300 },
    );
  }, 60_000);

  it("no secret straddling the cut leaves its head behind", () => {
    fc.assert(
      fc.property(straddling, ({ text, secrets }) => assertNoLeak(boundedRedactedDiagnostic(text), secrets)),
      { numRuns: 300 },
    );
  }, 60_000);

  it("no generated secret reaches the persisted file", async () => {
    const dir = tempDirForTest();
    await fc.assert(
      fc.asyncProperty(message, async ({ text, secrets }) => {
        await persistRunnerDiagnostic(dir, text);
        assertNoLeak(await readFile(join(dir, "runnerd.stderr.log"), "utf8"), secrets);
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
