import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact-secrets.js";
import { truncateUtf8 } from "./truncate-utf8.js";

describe("redactSecrets: a token's optional tail", () => {
  const body = `glpat-${"Ab1_".repeat(5)}`;

  it.each([
    [`${body}.0abcdefgh done`, "[REDACTED] done"],
    [`${body}.01.abcdefghi done`, "[REDACTED] done"],
    // Longer than a check part: the body is the token, and the word after it is kept.
    [`${body}.abcdefghijklmnopq done`, "[REDACTED].abcdefghijklmnopq done"],
  ])("%s", (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });
});

describe("redactSecrets: key forms of config files and hashes", () => {
  it.each([
    [`"password" => "hunter2"`, `"password" => "[REDACTED]"`],
    [`'secret_key' => 'sk_abc123def456',`, `'secret_key' => '[REDACTED]',`],
    [
      '<add key="ClearTextPassword" value="s3cr3t-pw" />',
      '<add key="ClearTextPassword" value="[REDACTED]" />',
    ],
    ['<add key="ClearTextPassword" value="" />', '<add key="ClearTextPassword" value="" />'],
    ['<add key="CacheKey" value="users-by-id" />', '<add key="CacheKey" value="users-by-id" />'],
    ["SONAR_LOGIN=0123456789abcdef0123456789abcdef01234567", "SONAR_LOGIN=[REDACTED]"],
    ["login: alice", "login: alice"],
    ["BUNDLE_GEMS__CONTRIBSYS__COM=0a1b2c3d:4e5f6a7b", "BUNDLE_GEMS__CONTRIBSYS__COM=[REDACTED]"],
  ])("%s", (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });
});

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

  it("keeps a provider's own scheme after Authorization only when a credential follows it", () => {
    expect(redactSecrets("Authorization: Splunk 5e1a-77c2-b9d0")).toBe("Authorization: Splunk [REDACTED]");
    expect(redactSecrets("Authorization: Klaviyo-API-Key pk_4f2a9c")).toBe(
      "Authorization: Klaviyo-API-Key [REDACTED]",
    );
    // A capitalised credential followed by a word is the value, not a scheme.
    expect(redactSecrets("Authorization: QWxhZGRpbjpvcGVu rejected")).toBe(
      "Authorization: [REDACTED] rejected",
    );
    expect(redactSecrets("authorization: Pending review")).toBe("authorization: Pending review");
    expect(redactSecrets("Authorization: GenieKey $OPSGENIE_KEY")).toBe(
      "Authorization: GenieKey $OPSGENIE_KEY",
    );
  });

  it("keeps a placeholder made of a provider's prefix and a mask", () => {
    for (const line of ["OPENAI_API_KEY=sk-proj-XXXX", "token: ghp_xxxxxxxx", "api_key: figd_****"]) {
      expect(redactSecrets(line)).toBe(line);
    }
    // A mask only ends a placeholder: a value with more after it is a value.
    expect(redactSecrets("password=pw_XXXX1")).toBe("password=[REDACTED]");
  });

  it("takes a run of scheme names as words: only the last may precede a credential", () => {
    expect(redactSecrets("Bearer Bearer abc123def456")).toBe("Bearer Bearer [REDACTED]");
    expect(redactSecrets("Basic\tbasic BASIC dXNlcjpwYXNz, next")).toBe(
      "Basic\tbasic BASIC [REDACTED], next",
    );
    expect(redactSecrets("Basic Basic Basic")).toBe("Basic Basic Basic");
    expect(redactSecrets(`Bearer Bearer${" ".repeat(9)}abc123def456`)).toBe(
      `Bearer Bearer${" ".repeat(9)}abc123def456`,
    );
  });

  it("reads a run of scheme names longer than one bounded match as one run", () => {
    const run = "Bearer \tbasic ".repeat(700);
    expect(redactSecrets(`${run}Basic dXNlcjpwYXNz`)).toBe(`${run}Basic [REDACTED]`);
    expect(redactSecrets(`${run}Basic`)).toBe(`${run}Basic`);
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

describe("redactSecrets: prose", () => {
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

describe("redactSecrets: a key's value longer than a credential", () => {
  const dump = "A1b2C3d4".repeat(1024);

  it("redacts the value to the end of its run, keeping the key and what follows the run", () => {
    expect(redactSecrets(`token=${dump} status=403`)).toBe("token=[REDACTED] status=403");
    expect(redactSecrets(`--api-key=${dump}.`)).toBe("--api-key=[REDACTED].");
    expect(redactSecrets(`run=${"p".repeat(40)}password=${dump}`)).toBe(
      `run=${"p".repeat(40)}password=[REDACTED]`,
    );
    expect(redactSecrets("password=".repeat(2000))).toBe("password=[REDACTED]");
    // Far into a run, the key-assignment rule does the same.
    const far = "a/".repeat(20_000);
    expect(redactSecrets(`${far}api_key=${dump}" next`)).toBe(`${far}api_key=[REDACTED]" next`);
  });

  it("keeps a long run after no key, after a value that names no secret, and after a short value", () => {
    expect(redactSecrets(`data=${dump} status=403`)).toBe(`data=${dump} status=403`);
    expect(redactSecrets(`token=${"$".repeat(5000)}`)).toBe(`token=${"$".repeat(5000)}`);
    expect(redactSecrets(`token=abc123 ${dump}`)).toBe(`token=[REDACTED] ${dump}`);
  });
});

describe("redactSecrets: a key name in odd casing", () => {
  // Header names are caseless; alternating case split the key into meaningless humps.
  it.each([
    ["cOoKiE: abcdef123456", "cOoKiE: [REDACTED]"],
    ["pAsSwOrD=hunter2", "pAsSwOrD=[REDACTED]"],
    ['{"aPi_KeY":"XYZkey123456"}', '{"aPi_KeY":"[REDACTED]"}'],
  ])("%s", (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it("keeps camelCase keys that describe a secret", () => {
    expect(redactSecrets("maxTokens: 4096 secretName: app-db")).toBe("maxTokens: 4096 secretName: app-db");
  });
});
