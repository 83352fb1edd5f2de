import { describe, expect, it } from "vitest";
import { redactSecretsCounted } from "./redact-secrets.js";

const MiB = 1024 * 1024;
const repeatTo = (unit: string, length: number): string => unit.repeat(Math.ceil(length / unit.length));

// Inputs that put a rule's trigger at every few characters: each one made an earlier or a
// naive redactor rescan the rest of the text from every trigger (quadratic time).
const HOSTILE_UNITS: readonly (readonly [string, string])[] = [
  ["a.", "dotted names"],
  ["token.", "sensitive words joined by dots"],
  ["token ", "sensitive words as bare keys"],
  ["token:", "sensitive words as explicit keys"],
  ["token=", "sensitive words as assignments"],
  ['"token":"', "unterminated JSON values"],
  ['\\"token\\":\\"', "unterminated escaped JSON values"],
  ["password=\\", "backslashes after keys"],
  ["api key ", "spaced key words"],
  ["eyJ", "JWT starts"],
  ["-eyJ", "JWT starts after dashes"],
  ["eyJa.", "JWT segments"],
  ["-sk-", "token prefixes after dashes"],
  [" sk.eyJ", "Mapbox prefixes"],
  ["AKIA", "AWS prefixes"],
  [" SG.", "SendGrid prefixes"],
  ["Bearer ", "auth schemes"],
  ["Bearer a=", "auth schemes before assignments"],
  ["-----BEGIN PRIVATE KEY-----", "unterminated PEM headers"],
  ["-----BEGIN PRIVATE KEY----------END X-----", "PEM headers and wrong ends"],
  ["http://a:", "URL userinfo without a host"],
  ["password ", "key words as bare keys"],
  ["Basic ", "auth schemes before schemes"],
  ["postgres://", "URL schemes in a run"],
  ["ghp_", "provider prefixes in a run"],
  ["Authorization: ", "header names"],
  ["--token ", "flags"],
  ["a://", "URL schemes"],
  [" -u a:", "command-line users"],
  [` -u ${"a".repeat(300)} `, "command-line users without a password"],
  ["hooks.slack.com/services/", "webhook paths"],
  [`token=${"}".repeat(64)} `, "closing brackets after values"],
  ["x".repeat(63) + "_token ", "keys at the length limit"],
  ["password=", "keys whose values run to the bound"],
  ['"password":"', "JSON keys whose values are redacted"],
  ["--password ", "flags whose values are flags"],
  ["Cookie: ", "cookie headers"],
  ["Token ", "schemes after keys"],
  ["mongodb+srv://", "URL schemes with a plus"],
  ["api_key=", "compound keys whose values run to the bound"],
  ["OPENAI_API_KEY=", "environment keys whose values run to the bound"],
  ["--secret key ", "flags whose key is two words"],
  ["?token=a&", "query keys whose values end at an ampersand"],
  ["token=", "credential keys whose values run past the bound"],
  ["secret=", "secret keys whose values run past the bound"],
  ["client_secret=", "compound secret keys whose values run past the bound"],
  ["passwd=", "short password keys whose values run past the bound"],
  ["--token ", "flags whose values are the next flag"],
  ["--api-key ", "compound flags whose values are the next flag"],
  ["Authorization: Bearer ", "header names before a scheme"],
  ["x-api-key: ", "header names of keys"],
  ["Proxy-Authorization: Basic ", "header names before a scheme that is not followed by a credential"],
  ["token = ", "spaced assignments whose values are keys"],
  ["--auth-token ", "flags whose key holds two sensitive words"],
  ["auth=", "registry keys whose values are not base64"],
  ["session=", "words that are a key only after a qualifier"],
  // Searched window by window: a repeated stretch without a match is skipped after one window.
  ["-p ", "short flags without a sensitive word"],
  ["-H ", "header flags"],
  ["--header ", "long flags without a sensitive word"],
  ["--user ", "user flags without a user"],
  ["redis://:", "URL schemes with an empty user"],
  ["mysql://", "URL schemes without a host"],
  ["://u:", "userinfo without a scheme"],
  ["hf_", "provider prefixes without a body"],
  ["xoxb-", "Slack prefixes without a body"],
  ["?token=", "query keys without values"],
  ["-----BEGIN ", "PEM starts without a label"],
  ["-p token ", "flags before a sensitive word"],
  // Prefixes inside their token, whose lead is read backwards from them.
  ["1Q~", "Azure client secret marks"],
  ["aQ~", "Azure client secret marks without a digit"],
  ["a".repeat(14) + ".atlasv1.", "Terraform token marks"],
  ["a_mmk", "MaxMind license key ends"],
  ["sc_abcde.abcd.acc_", "Authress key starts"],
  ["sonar_login ", "keys sensitive only after a qualifier"],
  ['key="password" value="', ".NET configuration entries left open"],
  ["'secret' => ", "hash arrows"],
  // Prefixes of the scanners' newer shapes, and the key word that ends some of their keys.
  ["pat-na1-", "HubSpot prefixes, which start with a key word"],
  ["CCIPAT_", "CircleCI prefixes, which end in a key word"],
  ["--pat ", "flags of a last-part key word"],
  ["tskey-", "Tailscale prefixes, which end in a key word"],
  ["bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t", "long fixed prefixes"],
  ["sb_secret_", "prefixes holding a key word"],
  ["sl.", "short prefixes of long bodies"],
  ["Authorization: Splunk ", "provider schemes without a credential"],
  ["-us", "inner marks read backwards"],
  // Key words that start no key here (the value is too short, or another flag): each is tried at
  // the word only, and the run of them is skipped, not searched on natively word by word.
  ["pwd ", "short key words that start no key"],
  ["--pwd ", "flags of a short key word whose values are flags"],
  ["-pwd ", "single-dash flags of a short key word"],
  ["--db-pwd ", "flags whose key ends in a short key word"],
  ["--sig ", "flags of a short key word of signatures"],
  ["pat ", "last-part key words that start no key"],
  ["scauth_", "key words inside a run of key characters too long for a key"],
];
// Keyed flags close together, then a repeated stretch without a sensitive word: a search that
// goes on from the last flag without the word search reads the whole stretch, flag by flag.
const PREFIXED_UNITS: readonly (readonly [string, string, string])[] = [
  ["--token v1 --token v2 ", "--header x ", "flags without a sensitive word after two keyed flags"],
  ["--token v1 ", "-H x ", "header flags after a keyed flag"],
];

// 3 MiB per case through vitest's module loader: a loaded CI machine gets a wide budget (the
// assertions are on counted work, never on time).
describe("redactSecrets: linear time on hostile 1 MiB inputs", { timeout: 120_000 }, () => {
  // Work is counted in characters examined (see RedactionContext.steps), not in time, so the
  // result is the same on any machine: doubling the input at most doubles the work, and the
  // work per character stays small.
  const expectLinear = (prefix: string, unit: string) => {
    const one = redactSecretsCounted(prefix + repeatTo(unit, MiB));
    const two = redactSecretsCounted(prefix + repeatTo(unit, 2 * MiB));
    expect(one.steps / MiB).toBeLessThan(40);
    expect(two.steps).toBeLessThanOrEqual(2.1 * one.steps);
  };
  it.each(HOSTILE_UNITS)("%j (%s)", (unit) => expectLinear("", unit));
  it.each(PREFIXED_UNITS)("%j then %j repeated (%s)", (prefix, unit) => expectLinear(prefix, unit));

  it("counts the work of every rule (a text with one of each secret costs more than plain text)", () => {
    // Plain text that does not repeat: a repetition is compared natively before it is skipped.
    const plain = redactSecretsCounted(
      Array.from({ length: 200 }, (_, index) => `line ${index}`).join(" "),
    ).steps;
    const secrets = redactSecretsCounted(
      "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY----- https://hooks.slack.com/services/T1/B2/c3 " +
        "https://u:p4ss@h/x ghp_0123456789abcdefghijABCD Bearer abc123def456 password=hunter2",
    ).steps;
    expect(plain).toBe(0);
    expect(secrets).toBeGreaterThan(50);
  });
});
