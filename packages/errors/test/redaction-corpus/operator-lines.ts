import { fake, LOWER_HEX } from "./fake-credentials.js";

export type OperatorClass =
  | "LLM usage"
  | "model settings"
  | "digest"
  | "commit id"
  | "uuid"
  | "resource id"
  | "path"
  | "prose"
  | "log line";

/** A line an operator needs as it is: it holds no secret and must come back unchanged. */
export interface OperatorLine {
  readonly label: OperatorClass;
  readonly text: string;
}

const lines = (label: OperatorClass, texts: readonly string[]): OperatorLine[] =>
  texts.map((text) => ({ label, text }));

const sha256 = () => fake(LOWER_HEX, 64);
const sha1 = () => fake(LOWER_HEX, 40);

export const OPERATOR_LINES: readonly OperatorLine[] = [
  ...lines("LLM usage", [
    "input_tokens=1234 output_tokens=56",
    "max_tokens: 4096",
    '"prompt_tokens":812',
    '{"usage":{"prompt_tokens":812,"completion_tokens":96,"total_tokens":908}}',
    '{"input_tokens":1520,"cache_creation_input_tokens":0,"cache_read_input_tokens":2048,"output_tokens":311}',
    "usage: prompt_tokens=812 completion_tokens=96 total_tokens=908",
    "tokens: 42",
    "token_count=5120",
    "tokens_per_second: 87.4",
    "maxOutputTokens: 8192",
    '"max_completion_tokens": 16384',
    "context window 200000 tokens, 1520 used",
    "reasoning_tokens=2048 cached_tokens=0",
    "Token usage: 1234 in / 56 out",
    '\\"output_tokens\\":311',
    "budget_tokens: 1024",
    "num_tokens=77 truncated=false",
    "cost: $0.0123 for 1,234 tokens",
    "tokens.input=1520 tokens.output=311",
  ]),
  ...lines("model settings", [
    "tokenizer: cl100k_base",
    "tokenType: bearer",
    "token_type=Bearer expires_in=3600",
    '{"token_type":"bearer","expires_in":3599,"scope":"repo"}',
    "eos_token: </s>",
    "pad_token_id: 0",
    "nextPageToken: CiAKGjBpNHd6MDAwMDAw",
    "secret_name: prod/db-credentials",
    "secretKeyRef: { name: db-secret, key: password }",
    "password_policy: min_length=12",
    "token_endpoint: https://auth.example.com/oauth/token",
    "credentials: none configured",
    "auth: none",
    "auth=required",
    '"auth": "oauth"',
    "authorization: pending review",
    "cookie policy: strict",
    "secretary: Alice",
    "is_secret: false",
    "password_required: true",
    "token_expires_at: 1767225600",
    "api_key_header: X-Api-Key",
    "secret_store: vault",
    "GOOGLE_APPLICATION_CREDENTIALS=/etc/gcp/service-account.json",
    "token_file=/var/run/secrets/kubernetes.io/serviceaccount/token",
    "ticket: OPS-1234",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell reference, as it appears in a config dump
    "password: ${DB_PASSWORD}",
    "API_KEY=$OPENAI_API_KEY",
    "token: <your-token-here>",
    "password: ********",
  ]),
  ...lines("digest", [
    `sha256:${sha256()}`,
    `image: ghcr.io/paperclipai/runner@sha256:${sha256()}`,
    `integrity sha512-${Buffer.from(fake(LOWER_HEX, 48)).toString("base64").slice(0, 40)}==`,
    `etag: "${fake(LOWER_HEX, 32)}"`,
    `md5 ${fake(LOWER_HEX, 32)}  dist/index.js`,
    `digest=${sha256()}`,
    `content-sha256: ${sha256()}`,
  ]),
  ...lines("commit id", [
    `commit ${sha1()}`,
    `HEAD is now at ${fake(LOWER_HEX, 7)} fix: bound the log tail`,
    `Merge pull request #1234 from org/branch (${sha1()})`,
    `git checkout ${sha1()}`,
    `revision: ${sha1()}`,
  ]),
  ...lines("uuid", [
    "run_id=5f0c6b2e-8d4a-4f3b-9c1e-2a7d9e0b1c3f",
    '"sessionId":"0b9e3f2a-1c4d-4e5f-8a6b-7c8d9e0f1a2b"',
    "request-id: 3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "x-request-id=a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
    "trace 01HZX3J6Q7R8S9T0V1W2X3Y4Z5 started",
  ]),
  ...lines("resource id", [
    "arn:aws:iam::123456789012:role/paperclip-runner",
    "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf",
    "instance i-0abcd1234ef567890 is running",
    "vpc-0a1b2c3d4e5f67890 subnet-0123456789abcdef0",
    "projects/my-proj/secrets/db-password/versions/3",
    "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg1/providers/Microsoft.KeyVault/vaults/kv1",
    "sandbox sbx_7f3a9c2e created",
    "lease lease_01HZX3J6Q7R8S9T0 acquired",
    "pod runner-7d9f8c6b5-x2k4p ready",
    "event_run_abc_42 seq=42",
    "ghcr.io/paperclipai/paperclip:2026.916.1",
    "@paperclipai/adapter-utils@2026.916.1",
    "node v24.11.0 (linux-x64)",
    "pid 48213 exited with code 1",
  ]),
  ...lines("path", [
    "/home/alice/.config/gh/hosts.yml",
    "~/.npmrc",
    "/var/run/secrets/kubernetes.io/serviceaccount/token",
    "/etc/password: No such file or directory",
    "open /run/secrets/token: permission denied",
    "C:\\Users\\alice\\AppData\\Roaming\\npm\\token.txt",
    "PWD=/home/alice/project",
    "./secrets/README.md",
    "src/redact/rules/token-formats.ts:42:7",
    "packages/errors/src/redact/key-names.ts",
    "at redactSecrets (file:///app/node_modules/@paperclipai/errors/dist/index.js:1:2345)",
  ]),
  ...lines("prose", [
    "Use a secret manager for credential handling and bearer authentication.",
    "Unexpected token } in JSON at position 5",
    "the token was rejected",
    "rotate the secret regularly",
    "passwords don't match",
    "Your password is too short.",
    "Bearer authentication is required for this endpoint.",
    "Basic auth failed for user bob",
    "The API key is invalid or expired.",
    "Invalid API key provided.",
    "credential helper not found",
    "cookie consent banner dismissed",
    "the private key is missing",
    "Send a Bearer Token in the Authorization header.",
    "token refresh scheduled in 5 minutes",
    "Set OPENAI_API_KEY to use the OpenAI adapter.",
    "authorization header missing",
    "JWT expired at 2026-12-01T17:00:00Z",
    "secret rotation completed for 3 services",
    "a password reset was requested",
  ]),
  ...lines("log line", [
    "status=403 retry_after=30 attempt=2",
    "GET /v1/sandboxes/sbx_7f3a9c2e 200 12ms",
    "POST https://api.example.com/v1/runs?page=2&per_page=50 201",
    "https://example.com:8443/health ok",
    "listening on http://127.0.0.1:3100",
    "ssh://git@github.com:22/org/repo.git",
    "connected to postgres://app@db.internal:5432/app",
    "email alice@example.com invited",
    "2026-12-01T17:42:16.123Z INFO runner ready",
    'level=warn msg="slow request" duration_ms=1532',
    "exit status 137 (SIGKILL)",
    "docker run --rm -e LOG_LEVEL=debug image:latest",
    "npm ERR! code E401",
    "version 1.2.3-beta.4+build.5",
    "tests: pass=128 fail=0 skip=2",
    "ERROR 1045 (28000): Access denied for user 'root'@'localhost' (using password: YES)",
    'psql: FATAL:  password authentication failed for user "app"',
    "error: --api-key is required",
    "Token: 3 of 5 used",
    "x-ratelimit-remaining-tokens: 39000",
    "anthropic-ratelimit-tokens-remaining: 80000",
    "Authorization failed: invalid credentials",
    "the path pattern was patched",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop",
    "-----BEGIN CERTIFICATE-----",
  ]),
];
