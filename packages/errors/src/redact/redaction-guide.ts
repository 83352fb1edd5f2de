import { MAX_CREDENTIAL_LENGTH } from "./read-value.js";
import { TOKEN_FORMATS } from "./rules/token-formats.js";

const providers = TOKEN_FORMATS.map((format) => format.provider).join(", ");

/**
 * What `redactSecrets` removes from a diagnostic and what it deliberately keeps, as Markdown:
 * printed by `paperclip-errors explain redaction` and quoted in docs/redaction.md.
 */
export const REDACTION_GUIDE = `# Redaction: what a diagnostic hides and what it keeps

Every error, diagnostic and log tail the Paperclip packages write goes through \`redactSecrets\`
first, and is cut to its size bound only after. A secret becomes \`[REDACTED]\`; the text
around it stays, so the line still says what failed and where.

## Redacted

- Provider tokens, recognised by their published prefix and shape wherever they appear, with
  or without a key before them: ${providers}. A few are recognised by a fixed part inside
  them (Azure's \`Q~\`, Terraform's \`.atlasv1.\`, MaxMind's \`_mmk\` ending, Mailchimp's \`-us\`
  and data centre after 32 hex digits).
- PEM private key blocks (\`-----BEGIN … PRIVATE KEY-----\` to the matching END, or to the end
  of the text when unterminated), PGP private key blocks included.
- Passwords inside URLs: \`postgres://app:[REDACTED]@db:5432/app\`,
  \`redis://:[REDACTED]@host\`, \`mongodb+srv://user:[REDACTED]@cluster\` (scheme, user,
  host, path and query are kept), and a token standing as a URL's user
  (\`https://[REDACTED]@github.com/acme/app.git\`: 20 characters or more, letters and digits).
- A key id and its secret joined by a colon (\`AKIA…:[REDACTED]\` is redacted whole), and a
  Telegram bot token in a URL path (\`/bot[REDACTED]/getMe\`).
- Passwords on a command line: \`curl -u alice:[REDACTED]\`, \`--user alice:[REDACTED]\`.
- Webhook URLs whose path is the credential (Slack, Discord, Microsoft Teams, Zapier):
  \`https://hooks.slack.com/services/[REDACTED]\`.
- Credentials after an auth scheme: \`Authorization: Bearer [REDACTED]\`,
  \`Basic [REDACTED]\`, \`Authorization: token [REDACTED]\` (the scheme is kept), and after a
  provider's own scheme when a credential follows it (\`Authorization: Splunk [REDACTED]\`,
  \`Authorization: GenieKey [REDACTED]\`).
- Values of keys that name a secret, in every form: \`password=[REDACTED]\`,
  \`api_key: [REDACTED]\`, \`"token":"[REDACTED]"\`, escaped JSON inside a string
  (\`{\\"token\\":\\"[REDACTED]\\"}\`), \`--token [REDACTED]\`, \`OPENAI_API_KEY [REDACTED]\`,
  \`?key=[REDACTED]&page=2\`, connection strings (\`AccountKey=[REDACTED];\`,
  \`Password=[REDACTED];\`), hash arrows (\`'secret_key' => '[REDACTED]'\`), .NET and NuGet
  configuration entries (\`<add key="ClearTextPassword" value="[REDACTED]" />\`). The key is
  kept, and the quotes around a quoted value.
  Key names: password, passwd, passphrase, pwd, secret, token, credential, creds, cookie, jwt,
  ticket, authorization, signature, api key, private key, access key, account key, secret key,
  connection string, a provider's key (\`ADAFRUIT_KEY\`, \`DD_APP_KEY\`), a named session
  cookie (\`_gitlab_session\`), a personal access token (\`pat\`: \`AZURE_DEVOPS_EXT_PAT\`,
  \`GITHUB_PAT\`), compound names included (\`OPENAI_API_KEY\`,
  \`proxyAuthorization\`, \`aws_secret_access_key\`, \`PGPASSWORD\`), and two names that hold a
  credential without saying so: \`SONAR_LOGIN\` and Bundler's \`BUNDLE_GEMS__CONTRIBSYS__COM\`.
  A key in odd casing is read as its lowercase spelling, as header names are caseless
  (\`cOoKiE: [REDACTED]\`, \`pAsSwOrD=[REDACTED]\`).
- In an error's \`details\` (and wherever \`serializeError\` copies an object), a value is judged
  by its key as \`"key":"value"\` is in text: \`{ password: "[REDACTED]" }\`,
  \`{ headers: { Cookie: "[REDACTED]", Authorization: "Basic [REDACTED]" } }\`, items of a
  list under such a key too; a key that is itself a secret becomes \`[REDACTED]\`. Binary data
  (\`Buffer\`, typed arrays) is never copied: \`[Uint8Array: 24 bytes]\`.
- Registry auth blobs: \`"auth": "[REDACTED]"\` (Docker \`config.json\`), \`_auth=[REDACTED]\`,
  \`//registry.npmjs.org/:_authToken=[REDACTED]\` (\`.npmrc\`).
- A password or secret key's value is always redacted, however short (\`password: x\`); only a
  value that says there is none (\`none\`, \`null\`, \`unset\`, \`true\`/\`false\`, empty) is kept.

## Kept on purpose

- Token counts and model settings: \`input_tokens=1234\`, \`max_tokens: 4096\`,
  \`"prompt_tokens":812\`, \`tokenizer: cl100k_base\`, \`tokenType: bearer\`,
  \`token_type=Bearer expires_in=3600\`, \`nextPageToken: …\`, \`eos_token: </s>\`.
- Keys that describe a secret rather than hold one: \`secret_name\`, \`token_endpoint\`,
  \`password_policy\`, \`token_file\`, \`secretKeyRef\`, \`api_key_header\`,
  \`--password-stdin\`, \`--cookie-jar\`; database and cache keys (\`primary_key\`,
  \`cache_key\`).
- Names of secrets in commands: \`kubectl get secret app-token\`, \`--secret=api-key\`,
  \`read -p 'Password: ' DB_PASSWORD\`, \`--from-file=./password.txt\`.
- Counts, flags and enum words after a token or credential key (\`Token: 3 of 5 used\`,
  \`credentials: none\`, \`token: expired\`, \`is_secret: false\`; a number of six digits or more
  after a singular key may be a code and is redacted), prose (\`authorization: pending review\`,
  \`cookie policy: strict\`, \`secretary: Alice\`, "Use a secret manager", "the token was
  rejected", "Bearer authentication", \`error: --api-key is required\`), file paths
  (\`GOOGLE_APPLICATION_CREDENTIALS=/etc/gcp/sa.json\`, \`token_file=/var/run/…/token\`,
  \`/etc/password: No such file\`, \`PWD=/home/alice\`), ticket ids (\`ticket: OPS-1234\`), and
  MySQL's \`(using password: YES)\`.
- References and placeholders, which are not the secret: \`\${DB_PASSWORD}\`, \`$OPENAI_API_KEY\`,
  \`<your-token>\`, \`****\`, a provider's prefix and a mask (\`sk-proj-XXXX\`, \`ghp_xxxxxxxx\`).
- Digests, commit ids, UUIDs, ULIDs, ARNs and resource ids, URLs without a password, e-mail
  addresses, versions; client and account ids (\`DISCORD_CLIENT_ID\`, \`SUMO_ACCESS_ID\`),
  which name an app or an account and are not secrets.

## Limits

- A credential value is read up to ${MAX_CREDENTIAL_LENGTH} characters; a longer run is noise,
  and the rest of it is kept, except right after a sensitive key and its separator (a dump
  after \`token=\`): such a value is redacted to the end of its run (whitespace, \`,\` or \`;\`).
- A key is recognised with at most 64 key characters on each side of its sensitive word.
- In the bare \`key value\` form (no \`=\` or \`:\`), only a value shaped like a credential
  (letters with digits or joiners, 6 characters or more) counts; after \`=\` or \`:\`, a single
  word of letters of a word's length (up to 15) is taken as prose for token, credential and
  authorization keys. Password and secret keys have no such exception.
- Redaction is linear in the input: hostile text (a trigger every few characters) costs a
  bounded amount of work per character.
- The rules are JavaScript, not one regular expression: until V8 has optimised them, about the
  first megabyte a process redacts runs several times slower than what follows (on 1 MiB of
  key-dense text, 0.08 s against upstream's 0.02 s). Then ordinary text, a key, scheme or
  prefix repeated, and text dense with keyed values, flags or URL passwords that all differ
  (\`--token v1 --token v2 …\`, \`key=1&key=2…\`, a URL with a password in every few words, a header
  per line) run at or above upstream's speed, though each value is judged, and a credential
  redacted, where upstream's rules skip text without one of their hint words (a URL's password,
  a header's value) and redact nothing there.
- Each text is judged on its own: a secret split across two strings (half in one field, half in
  another) is redacted only where a half is recognisable alone.
`;
