import {
  ALNUM,
  BASE64,
  BASE64URL,
  base64,
  fake,
  fakeJwt,
  LETTERS,
  LOWER_HEX,
  UPPER_ALNUM,
} from "./fake-credentials.js";

export type SecretClass =
  | "cloud access key id"
  | "provider token"
  | "webhook URL"
  | "API key in a query string"
  | "password in a URL"
  | "connection string"
  | "registry auth"
  | "escaped JSON"
  | "sensitive key"
  | "auth scheme"
  | "JWT"
  | "private key";

/** A line that holds secrets: none of `secrets` may survive, every part of `keep` must. */
export interface SecretLine {
  readonly label: SecretClass;
  readonly text: string;
  readonly secrets: readonly string[];
  readonly keep?: readonly string[];
}

const line = (
  label: SecretClass,
  text: string,
  secrets: readonly string[],
  keep: readonly string[] = [],
): SecretLine => ({
  label,
  text,
  secrets,
  keep: keep.filter((part) => part.length > 0),
});

/** One provider token, bare in a sentence, with no sensitive key before it. */
const bareToken = (token: string, before = "using", after = "for the deploy"): SecretLine =>
  line("provider token", `${before} ${token} ${after}`, [token], [before, after]);

const awsId = (prefix: string) => `${prefix}${fake(UPPER_ALNUM, 16)}`;
const aws1 = awsId("AKIA");
const aws2 = awsId("ASIA");
const aws3 = awsId("AKIA");
const aws4 = awsId("AKIA");
const awsSecret = fake(BASE64, 40);
const jwt1 = fakeJwt();
const jwt2 = fakeJwt();
const jwt3 = fakeJwt();
const pemBody = fake(BASE64, 64);
const escapedJson = (value: string, key = "token") =>
  JSON.stringify(JSON.stringify({ [key]: value, status: 401 }));

const passwords = Array.from({ length: 12 }, () => fake(ALNUM, 14));
const tokens = Array.from({ length: 12 }, () => fake(BASE64URL, 32));

export const SECRET_LINES: readonly SecretLine[] = [
  // Cloud access key ids, bare and in context.
  line("cloud access key id", `aws_access_key_id = ${aws1}`, [aws1], ["aws_access_key_id = "]),
  line("cloud access key id", `export AWS_ACCESS_KEY_ID=${aws2}`, [aws2], ["export AWS_ACCESS_KEY_ID="]),
  line(
    "cloud access key id",
    `The request signature used ${aws3}, which is disabled.`,
    [aws3],
    ["which is disabled."],
  ),
  line(
    "cloud access key id",
    `X-Amz-Credential=${aws4}%2F20260101%2Fus-east-1%2Fs3%2Faws4_request`,
    [aws4],
    ["%2F20260101%2Fus-east-1"],
  ),
  line("sensitive key", `aws_secret_access_key = ${awsSecret}`, [awsSecret], ["aws_secret_access_key = "]),

  // Provider tokens by prefix, with no key before them.
  bareToken(`sk-proj-${fake(BASE64URL, 48)}`),
  bareToken(`sk-ant-api03-${fake(BASE64URL, 93)}AA`),
  bareToken(`sk-${fake(ALNUM, 48)}`),
  bareToken(`ghp_${fake(ALNUM, 36)}`),
  bareToken(`gho_${fake(ALNUM, 36)}`),
  bareToken(`ghs_${fake(ALNUM, 36)}`),
  bareToken(`github_pat_11${fake(UPPER_ALNUM, 20)}_${fake(ALNUM, 59)}`),
  bareToken(`glpat-${fake(BASE64URL, 20)}`),
  bareToken(`glrt-${fake(BASE64URL, 20)}`),
  bareToken(`xoxb-${fake("0123456789", 12)}-${fake("0123456789", 13)}-${fake(ALNUM, 24)}`),
  bareToken(
    `xoxp-${fake("0123456789", 12)}-${fake("0123456789", 12)}-${fake("0123456789", 13)}-${fake(LOWER_HEX, 32)}`,
  ),
  bareToken(`xapp-1-A${fake(UPPER_ALNUM, 10)}-${fake("0123456789", 13)}-${fake(LOWER_HEX, 64)}`),
  bareToken(`sk_live_${fake(ALNUM, 99)}`),
  bareToken(`rk_live_${fake(ALNUM, 99)}`),
  bareToken(`sk_test_${fake(ALNUM, 24)}`),
  bareToken(`whsec_${fake(ALNUM, 32)}`),
  bareToken(`npm_${fake(ALNUM, 36)}`),
  bareToken(`pypi-AgEIcHlwaS5vcmc${fake(BASE64URL, 60)}`),
  bareToken(`hf_${fake(LETTERS, 34)}`),
  bareToken(`SG.${fake(BASE64URL, 22)}.${fake(BASE64URL, 43)}`),
  bareToken(`dop_v1_${fake(LOWER_HEX, 64)}`),
  bareToken(`doo_v1_${fake(LOWER_HEX, 64)}`),
  bareToken(`AIza${fake(BASE64URL, 35)}`),
  bareToken(`ya29.${fake(BASE64URL, 120)}`),
  bareToken(`GOCSPX-${fake(BASE64URL, 28)}`),
  bareToken(`SK${fake(LOWER_HEX, 32)}`),
  bareToken(`key-${fake(LOWER_HEX, 32)}`),
  bareToken(`shpat_${fake(LOWER_HEX, 32)}`),
  bareToken(`ATATT3xFfGF0${fake(BASE64URL, 180)}`),
  bareToken(`lin_api_${fake(ALNUM, 40)}`),
  bareToken(`gsk_${fake(ALNUM, 48)}`),
  bareToken(`r8_${fake(ALNUM, 37)}`),
  bareToken(`pplx-${fake(ALNUM, 48)}`),
  bareToken(`hvs.${fake(BASE64URL, 90)}`),
  bareToken(`dp.pt.${fake(ALNUM, 43)}`),
  bareToken(`PMAK-${fake(LOWER_HEX, 24)}-${fake(LOWER_HEX, 34)}`),
  bareToken(`sbp_${fake(LOWER_HEX, 40)}`),
  bareToken(`sntryu_${fake(LOWER_HEX, 64)}`),
  bareToken(`dapi${fake(LOWER_HEX, 32)}`),
  bareToken(`dckr_pat_${fake(BASE64URL, 27)}`),
  bareToken(`glsa_${fake(ALNUM, 32)}_${fake(LOWER_HEX, 8)}`),
  bareToken(`NRAK-${fake("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 27)}`),
  bareToken(`AGE-SECRET-KEY-1${fake("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 58)}`),
  bareToken(`rubygems_${fake(LOWER_HEX, 48)}`),
  bareToken(`LTAI${fake(ALNUM, 20)}`),
  bareToken(`ntn_${fake(ALNUM, 46)}`),
  bareToken(`dt0c01.${fake(UPPER_ALNUM, 24)}.${fake(UPPER_ALNUM, 64)}`),
  bareToken(`AAAA${fake(BASE64URL, 7)}:APA91b${fake(BASE64URL, 134)}`),
  bareToken(`pscale_tkn_${fake(BASE64URL, 43)}`),

  // Webhook URLs: whoever has the URL can post; the path after the fixed part is the secret.
  ...(
    [
      [
        "posting to https://hooks.slack.com/services/",
        `T${fake(UPPER_ALNUM, 8)}/B${fake(UPPER_ALNUM, 10)}/${fake(ALNUM, 24)}`,
        " failed",
      ],
      [
        "SLACK_WEBHOOK_URL=https://hooks.slack.com/workflows/",
        `T${fake(UPPER_ALNUM, 8)}/A${fake(UPPER_ALNUM, 10)}/${fake("0123456789", 18)}/${fake(ALNUM, 24)}`,
        "",
      ],
      ["discord: https://discord.com/api/webhooks/", `${fake("0123456789", 19)}/${fake(BASE64URL, 68)}`, ""],
      [
        "teams https://contoso.webhook.office.com/webhookb2/",
        `${fake(LOWER_HEX, 8)}-${fake(LOWER_HEX, 4)}@${fake(LOWER_HEX, 8)}/IncomingWebhook/${fake(LOWER_HEX, 32)}/${fake(LOWER_HEX, 8)}`,
        " returned 400",
      ],
    ] as const
  ).map(([before, secret, after]) =>
    line("webhook URL", `${before}${secret}${after}`, [secret], [before, after]),
  ),

  // Google API keys in a query string.
  ...[0, 1, 2].map((index) => {
    const key = `AIza${fake(BASE64URL, 35)}`;
    return line(
      "API key in a query string",
      `GET https://maps.googleapis.com/maps/api/geocode/json?address=${index}&key=${key}&sensor=false`,
      [key],
      ["https://maps.googleapis.com/maps/api/geocode/json?address=", "&sensor=false"],
    );
  }),
  line(
    "API key in a query string",
    `fetch https://api.example.com/v1/items?api_key=${tokens[0]}&page=2`,
    [tokens[0] as string],
    ["https://api.example.com/v1/items?api_key=", "&page=2"],
  ),
  (() => {
    const signature = `${encodeURIComponent(fake(BASE64, 43))}%3D`;
    return line(
      "API key in a query string",
      `https://storage.example.net/c/b.bin?sv=2022-11-02&se=2026-12-31&sp=r&sig=${signature}`,
      [signature],
      ["?sv=2022-11-02&se=2026-12-31&sp=r&sig="],
    );
  })(),

  // Passwords inside URLs: scheme, user, host and path are kept.
  line(
    "password in a URL",
    `https://alice:${passwords[0]}@git.example.com/org/repo.git`,
    [passwords[0] as string],
    ["https://alice:", "@git.example.com/org/repo.git"],
  ),
  line(
    "password in a URL",
    `DATABASE_URL=postgres://app:${passwords[1]}@db.internal:5432/app`,
    [passwords[1] as string],
    ["postgres://app:", "@db.internal:5432/app"],
  ),
  line(
    "password in a URL",
    `connecting to mongodb+srv://admin:${passwords[2]}@cluster0.ab1cd.mongodb.net/prod?retryWrites=true`,
    [passwords[2] as string],
    ["mongodb+srv://admin:", "@cluster0.ab1cd.mongodb.net/prod?retryWrites=true"],
  ),
  line(
    "password in a URL",
    `REDIS_URL=redis://:${passwords[3]}@127.0.0.1:6379/0`,
    [passwords[3] as string],
    ["redis://:", "@127.0.0.1:6379/0"],
  ),
  line(
    "password in a URL",
    `amqp://guest:${passwords[4]}@rabbit:5672/vhost`,
    [passwords[4] as string],
    ["amqp://guest:"],
  ),
  line(
    "password in a URL",
    `mysql://root:${passwords[5]}@localhost:3306/db`,
    [passwords[5] as string],
    ["@localhost:3306/db"],
  ),
  line(
    "password in a URL",
    `git clone https://x-access-token:${passwords[6]}@github.com/org/repo`,
    [passwords[6] as string],
    ["@github.com/org/repo"],
  ),
  line(
    "password in a URL",
    `proxy http://user:${passwords[7]}@proxy.corp:3128`,
    [passwords[7] as string],
    ["http://user:"],
  ),

  // Connection strings.
  ...[0, 1].map(() => {
    const key = `${fake(BASE64, 86)}==`;
    return line(
      "connection string",
      `DefaultEndpointsProtocol=https;AccountName=acct1;AccountKey=${key};EndpointSuffix=core.windows.net`,
      [key],
      ["AccountName=acct1;AccountKey=", ";EndpointSuffix=core.windows.net"],
    );
  }),
  (() => {
    const key = `${fake(BASE64, 43)}=`;
    return line(
      "connection string",
      `Endpoint=sb://ns1.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${key}`,
      [key],
      ["SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey="],
    );
  })(),
  line(
    "connection string",
    `Server=tcp:sql1.database.windows.net,1433;Database=app;User ID=admin;Password=${passwords[8]};Encrypt=true`,
    [passwords[8] as string],
    ["User ID=admin;Password=", ";Encrypt=true"],
  ),
  line(
    "connection string",
    `Driver={ODBC Driver 18};Server=db;Uid=sa;PWD=letmein;`,
    ["letmein"],
    [";Server=db;Uid=sa;PWD="],
  ),
  line(
    "connection string",
    `Host=db;Username=app;Pwd=${passwords[9]};Database=app`,
    [passwords[9] as string],
    ["Host=db;Username=app;Pwd="],
  ),
  line(
    "connection string",
    `jdbc:postgresql://db:5432/app?user=app&password=${passwords[10]}&ssl=true`,
    [passwords[10] as string],
    ["?user=app&password=", "&ssl=true"],
  ),

  // Registry auth blobs.
  ...[0, 1].map((index) => {
    const blob = base64(`user${index}:${fake(ALNUM, 20)}`);
    return line(
      "registry auth",
      `{"auths":{"ghcr.io":{"auth":"${blob}"}}}`,
      [blob],
      ['{"auths":{"ghcr.io":{"auth":"'],
    );
  }),
  (() => {
    const blob = base64(`deploy:${fake(ALNUM, 24)}`);
    return line("registry auth", `"auth": "${blob}",`, [blob], ['"auth": "']);
  })(),
  (() => {
    const blob = base64(`ci:${fake(ALNUM, 16)}`);
    return line("registry auth", `_auth=${blob}`, [blob], ["_auth="]);
  })(),
  (() => {
    const token = `npm_${fake(ALNUM, 36)}`;
    return line(
      "registry auth",
      `//registry.npmjs.org/:_authToken=${token}`,
      [token],
      ["//registry.npmjs.org/:_authToken="],
    );
  })(),
  (() => {
    const token = fake(BASE64URL, 40);
    return line(
      "registry auth",
      `//npm.pkg.github.com/:_authToken=${token}`,
      [token],
      ["//npm.pkg.github.com/:_authToken="],
    );
  })(),
  (() => {
    const blob = base64(fake(ALNUM, 18));
    return line("registry auth", `//registry.example.com/:_password=${blob}`, [blob], ["_password="]);
  })(),

  // Secrets inside escaped JSON (a JSON document quoted inside a log string).
  line(
    "escaped JSON",
    `error body ${escapedJson(tokens[1] as string)}`,
    [tokens[1] as string],
    ['error body "{\\"token\\":\\"'],
  ),
  line("escaped JSON", `{"msg":${escapedJson(passwords[11] as string, "password")}}`, [
    passwords[11] as string,
  ]),
  line("escaped JSON", `log=${escapedJson(tokens[2] as string, "api_key")}`, [tokens[2] as string]),
  line("escaped JSON", `${escapedJson(`pre"${tokens[3]}`, "client_secret")}`, [tokens[3] as string]),
  line("escaped JSON", `{\\"authorization\\": \\"Bearer ${tokens[4]}\\"}`, [tokens[4] as string]),
  line("escaped JSON", `"detail": "{\\n  \\"access_token\\": \\"${tokens[5]}\\"\\n}"`, [tokens[5] as string]),

  // Values of sensitive keys.
  ...(
    [
      ["OPENAI_API_KEY=", fake(ALNUM, 20)],
      ["DB_PASSWORD=", "hunter2"],
      ["password: ", "x"],
      ["PGPASSWORD=", fake(ALNUM, 12)],
      ["client_secret=", fake(BASE64URL, 34)],
      ["SECRET_KEY_BASE=", fake(LOWER_HEX, 64)],
      ["GITHUB_TOKEN=", fake(ALNUM, 40)],
      ["HF_TOKEN: ", fake(ALNUM, 30)],
      ["X-Api-Key: ", fake(LOWER_HEX, 32)],
      ["x-auth-token: ", fake(BASE64URL, 24)],
      ["PRIVATE-TOKEN: ", fake(ALNUM, 20)],
      ["Cookie: session=", fake(BASE64URL, 32)],
      ["--password ", fake(ALNUM, 10)],
      ["--token=", fake(ALNUM, 24)],
      ["--api-key ", fake(ALNUM, 24)],
      ["spring.datasource.password=", fake(ALNUM, 12)],
      ["secret: ", fake(ALNUM, 16)],
      ["ANTHROPIC_API_KEY ", fake(BASE64URL, 40)],
      ["refresh_token=", fake(BASE64URL, 40)],
      ["session_ticket: ", fake(BASE64, 28)],
      ["app_key=base64:", fake(BASE64, 44)],
      ["passphrase: ", "correct horse"],
    ] as const
  ).map(([key, value]) =>
    line("sensitive key", `${key}${value}`, [value], [key.split(/[=:\s]/)[0] as string]),
  ),
  (() => {
    const value = fake(BASE64URL, 24);
    return line("sensitive key", `{"token": "${value}", "status": "error"}`, [value], ['"status": "error"']);
  })(),
  (() => {
    const value = fake(ALNUM, 16);
    return line("sensitive key", `{ "api_key" : "${value}" }`, [value], ['"api_key" : "']);
  })(),
  (() => {
    const value = fake(ALNUM, 12);
    return line("sensitive key", `  password: '${value}'`, [value], ["  password: '"]);
  })(),
  (() => {
    const value = fake(BASE64URL, 30);
    return line(
      "sensitive key",
      `curl -H "X-API-Key: ${value}" https://api.example.com`,
      [value],
      ["https://api.example.com"],
    );
  })(),

  // Auth schemes.
  line(
    "auth scheme",
    `Authorization: Bearer ${tokens[6]}`,
    [tokens[6] as string],
    ["Authorization: Bearer "],
  ),
  line("auth scheme", `proxy said Bearer ${tokens[7]} is invalid`, [tokens[7] as string], ["is invalid"]),
  (() => {
    const credential = base64(`bob:${fake(ALNUM, 10)}`);
    return line(
      "auth scheme",
      `Proxy-Authorization: Basic ${credential}`,
      [credential],
      ["Proxy-Authorization: Basic "],
    );
  })(),
  line("auth scheme", `Authorization: token ${tokens[8]}`, [tokens[8] as string], ["Authorization: token "]),
  line("auth scheme", `curl -H 'Authorization: Bearer ${tokens[9]}' https://x`, [tokens[9] as string]),

  // JWTs.
  line("JWT", `id_token=${jwt1}`, [jwt1]),
  line("JWT", `cookie a=${jwt2}; Path=/`, [jwt2]),
  line("JWT", `decoded ${jwt3} ok`, [jwt3], ["decoded ", " ok"]),

  // Private keys.
  line("private key", `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`, [
    pemBody,
  ]),
  line(
    "private key",
    `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${tokens[10]}\\n-----END PRIVATE KEY-----\\n"}`,
    [tokens[10] as string],
  ),
  line("private key", `-----BEGIN OPENSSH PRIVATE KEY-----\n${tokens[11]}`, [tokens[11] as string]),
];
