import { OPERATOR_LINES } from "../../../packages/errors/test/redaction-corpus/operator-lines.js";
import { SECRET_LINES } from "../../../packages/errors/test/redaction-corpus/secret-lines.js";

/** An input of the throughput figures, built to a size inside each worker (never copied). */
export interface BenchInput {
  readonly name: string;
  readonly build: (bytes: number) => string;
}

const repeated =
  (unit: string, tail = "") =>
  (bytes: number): string =>
    unit.repeat(Math.ceil((bytes - tail.length) / Buffer.byteLength(unit))) + tail;

// A unit that differs each time (`unit(0)`, `unit(1)`, …): nothing repeats for a skipper to skip.
const numbered =
  (unit: (index: number) => string) =>
  (bytes: number): string => {
    const units: string[] = [];
    for (let index = 0, length = 0; length < bytes; index += 1) {
      units.push(unit(index));
      length += Buffer.byteLength(units[index] as string);
    }
    return units.join("");
  };

// An unterminated PEM block runs to the end of the text, which would make the rest free.
const closedSecretLines = SECRET_LINES.filter(
  (line) => !line.text.includes("-----BEGIN") || line.text.includes("-----END"),
);
// A diagnostic as the runner writes them: operator lines with a secret line every tenth line.
const diagnosticUnit = `${OPERATOR_LINES.map((line, index) => {
  const secret = closedSecretLines[index % closedSecretLines.length];
  return index % 10 === 0 && secret ? `${line.text}\n${secret.text}` : line.text;
}).join("\n")}\n`;

export const TYPICAL_INPUTS: readonly BenchInput[] = [
  { name: "diagnostic log, a secret line every 10 lines", build: repeated(diagnosticUnit) },
  {
    name: "operator text, no secret",
    build: repeated(`${OPERATOR_LINES.map((line) => line.text).join("\n")}\n`),
  },
];

// Each puts a rule's trigger every few characters (packages/errors/src/redact/redact-linear-time.test.ts
// has the full list): a backtracking redactor rescans the rest of the text from each trigger.
export const HOSTILE_INPUTS: readonly BenchInput[] = [
  { name: 'hostile: "token " repeated', build: repeated("token ") },
  { name: 'hostile: "\\"token\\":\\"" repeated', build: repeated('"token":"') },
  { name: 'hostile: "--token=\\"" repeated', build: repeated('--token="') },
  { name: 'hostile: "a-" repeated, then one "."', build: repeated("a-", ".") },
  { name: 'hostile: "token-" repeated, then "="', build: repeated("token-", "=") },
  { name: 'hostile: "-sk-" repeated', build: repeated("-sk-") },
  { name: 'hostile: "eyJ" repeated', build: repeated("eyJ") },
  { name: 'hostile: "Bearer " repeated', build: repeated("Bearer ") },
  { name: 'hostile: "http://a:" repeated', build: repeated("http://a:") },
  // Issue 21: the same kind, each a trigger of one rule — a key word, a scheme, a URL scheme, a
  // provider prefix and a header name repeated about a million times.
  { name: 'hostile: "password " repeated', build: repeated("password ") },
  { name: 'hostile: "Basic " repeated', build: repeated("Basic ") },
  { name: 'hostile: "postgres://" repeated', build: repeated("postgres://") },
  { name: 'hostile: "ghp_" repeated', build: repeated("ghp_") },
  { name: 'hostile: "Authorization: " repeated', build: repeated("Authorization: ") },
  // More of the same kinds: a key with its separator, a JSON key whose value is a secret, a flag,
  // another header name, a scheme that follows a key, a fixed-length prefix and a URL scheme.
  { name: 'hostile: "password=" repeated', build: repeated("password=") },
  { name: 'hostile: "\\"password\\":\\"" repeated', build: repeated('"password":"') },
  { name: 'hostile: "--password " repeated', build: repeated("--password ") },
  { name: 'hostile: "Cookie: " repeated', build: repeated("Cookie: ") },
  { name: 'hostile: "Token " repeated', build: repeated("Token ") },
  { name: 'hostile: "AKIA" repeated', build: repeated("AKIA") },
  { name: 'hostile: "mongodb+srv://" repeated', build: repeated("mongodb+srv://") },
  // Keys whose value upstream takes to the end of the text in one match, flags whose value is the
  // next flag, and header names before a scheme: each is redacted again and again.
  { name: 'hostile: "token=" repeated', build: repeated("token=") },
  { name: 'hostile: "api_key=" repeated', build: repeated("api_key=") },
  { name: 'hostile: "OPENAI_API_KEY=" repeated', build: repeated("OPENAI_API_KEY=") },
  { name: 'hostile: "secret=" repeated', build: repeated("secret=") },
  { name: 'hostile: "client_secret=" repeated', build: repeated("client_secret=") },
  { name: 'hostile: "passwd=" repeated', build: repeated("passwd=") },
  { name: 'hostile: "--token " repeated', build: repeated("--token ") },
  { name: 'hostile: "--api-key " repeated', build: repeated("--api-key ") },
  { name: 'hostile: "Authorization: Bearer " repeated', build: repeated("Authorization: Bearer ") },
  { name: 'hostile: "x-api-key: " repeated', build: repeated("x-api-key: ") },
  // Triggers that hold no secret word (a flag, a URL scheme without a host, a provider prefix, a
  // PEM start): the whole text is searched and nothing found, which a repetition lets us skip.
  { name: 'hostile: "-p " repeated', build: repeated("-p ") },
  { name: 'hostile: "-H " repeated', build: repeated("-H ") },
  { name: 'hostile: "--header " repeated', build: repeated("--header ") },
  { name: 'hostile: "--user " repeated', build: repeated("--user ") },
  { name: 'hostile: "-u a:" repeated', build: repeated("-u a:") },
  { name: 'hostile: "redis://:" repeated', build: repeated("redis://:") },
  { name: 'hostile: "mysql://" repeated', build: repeated("mysql://") },
  { name: 'hostile: "://u:" repeated', build: repeated("://u:") },
  { name: 'hostile: "hf_" repeated', build: repeated("hf_") },
  { name: 'hostile: "xoxb-" repeated', build: repeated("xoxb-") },
  { name: 'hostile: "?token=" repeated', build: repeated("?token=") },
  { name: 'hostile: "-----BEGIN " repeated', build: repeated("-----BEGIN ") },
  // Key words that start no key here, which upstream does not know (so does no work on): a short
  // key word, a flag of it whose value is the next flag, and a word that is a key only as a last part.
  { name: 'hostile: "pwd " repeated', build: repeated("pwd ") },
  { name: 'hostile: "--pwd " repeated', build: repeated("--pwd ") },
  { name: 'hostile: "pat " repeated', build: repeated("pat ") },
  // More flags upstream does not know whose values are the next flag: a single dash, the short key
  // word at a key's end, and the word that is a key only as a last part.
  { name: 'hostile: "-pwd " repeated', build: repeated("-pwd ") },
  { name: 'hostile: "--db-pwd " repeated', build: repeated("--db-pwd ") },
  { name: 'hostile: "--pat " repeated', build: repeated("--pat ") },
];

/** Hostile inputs whose every unit differs: ours and upstream run close on them, so they get more rounds. */
export const DISTINCT_VALUE_INPUTS: readonly BenchInput[] = [
  // A key word, a scheme, a URL or a header repeated with a distinct value each time: every unit
  // is judged, as the repeat skipper cannot help.
  { name: 'hostile: "--token v<i> " with distinct values', build: numbered((i) => `--token v${i} `) },
  { name: 'hostile: "Bearer v<i>x " with distinct values', build: numbered((i) => `Bearer v${i}x `) },
  {
    name: 'hostile: "\\"token\\":\\"v<i>\\"," with distinct values',
    build: numbered((i) => `"token":"v${i}",`),
  },
  { name: 'hostile: "http://u:p<i>@h/ " with distinct values', build: numbered((i) => `http://u:p${i}@h/ `) },
  {
    name: 'hostile: "OPENAI_API_KEY=v<i> " with distinct values',
    build: numbered((i) => `OPENAI_API_KEY=v${i} `),
  },
  {
    name: 'hostile: "--token v<i> " and "-H x<i> " alternating, distinct values',
    build: numbered((i) => (i % 2 ? `--token v${i} ` : `-H x${i} `)),
  },
  { name: "hostile: \"-H 'X-Id: <i>' \" with distinct values", build: numbered((i) => `-H 'X-Id: ${i}' `) },
  { name: 'hostile: "password=v<i> " with distinct values', build: numbered((i) => `password=v${i} `) },
  // A key per line and a query key, each with a distinct value: upstream redacts neither form, so
  // it only scans them, where every unit here is a key to judge and a value to redact.
  { name: 'hostile: "token: v<i>\\n" with distinct values', build: numbered((i) => `token: v${i}\n`) },
  { name: 'hostile: "key=<i>&" with distinct values', build: numbered((i) => `key=${i}&`) },
];

export const inputNamed = (name: string): BenchInput | undefined =>
  [...TYPICAL_INPUTS, ...HOSTILE_INPUTS, ...DISTINCT_VALUE_INPUTS].find((input) => input.name === name);
