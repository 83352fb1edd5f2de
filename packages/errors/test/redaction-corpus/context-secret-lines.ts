import { ALNUM, BASE64, BASE64URL, base64, fake, LOWER_HEX, UPPER_ALNUM } from "./fake-credentials.js";

import { line, type SecretLine } from "./secret-line.js";

const escapedJson = (value: string, key = "token") =>
  JSON.stringify(JSON.stringify({ [key]: value, status: 401 }));

const passwords = Array.from({ length: 12 }, () => fake(ALNUM, 14));
const tokens = Array.from({ length: 10 }, () => fake(BASE64URL, 32));

/** Secrets recognised by where they stand: URLs, connection strings, registry auth, key values, schemes. */
export const CONTEXT_SECRET_LINES: readonly SecretLine[] = [
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

  line(
    "sensitive key",
    `curl -u admin:${passwords[11]}x https://api.example.com`,
    [`${passwords[11]}x`],
    ["curl -u admin:", " https://api.example.com"],
  ),

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
];
