import {
  ALNUM,
  BASE64,
  BASE64URL,
  fake,
  fakeJwt,
  LOWER_HEX,
  UPPER_ALNUM,
} from "../redaction-corpus/fake-credentials.js";

// Secret shapes that public scanners know, held out of the labelled corpus: one entry per rule
// of gitleaks' default config (config/gitleaks.toml) and per widely used trufflehog detector,
// by its published prefix, alphabet and length. Every value is synthetic and built at run time
// from parts, so no literal in this file looks like a live credential to a push-protection scan.

export interface ScannerShape {
  readonly scanner: "gitleaks" | "trufflehog";
  readonly rule: string;
  /** The whole line as it would appear in a log; every one of `secrets` must be gone. */
  readonly text: string;
  readonly secrets: readonly string[];
}

const LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_HEX = "0123456789ABCDEF";
const DIGITS = "0123456789";
// Crockford-style base32 of age keys (no B, I, O, 1 after the prefix).
const AGE = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L";
const join = (...parts: string[]): string => parts.join("");
const uuid = (alphabet: string): string =>
  [8, 4, 4, 4, 12].map((length) => fake(alphabet, length)).join("-");

/** A bare token in a log line, with no key before it: found by its shape alone. */
const bare = (scanner: ScannerShape["scanner"], rule: string, secret: string): ScannerShape => ({
  scanner,
  rule,
  text: `request failed using ${secret} for the deploy`,
  secrets: [secret],
});
/** A token assigned to a key that names its provider (`ADAFRUIT_API_KEY=…`). */
const keyed = (scanner: ScannerShape["scanner"], rule: string, key: string, secret: string): ScannerShape => ({
  scanner,
  rule,
  text: `${key}=${secret}`,
  secrets: [secret],
});

const awsId = join("AK", "IA", fake(UPPER_ALNUM, 16));
const awsSecret = fake(BASE64, 40);
const telegram = join(fake(DIGITS, 10), ":AA", fake(BASE64URL, 33));
const twilioSid = join("A", "C", fake(LOWER_HEX, 32));
const twilioToken = fake(LOWER_HEX, 32);
const githubInUrl = join("gh", "p_", fake(ALNUM, 36));
const opaqueUser = fake(ALNUM, 40);

/** One per prefix rule of gitleaks' default config. */
export const GITLEAKS_PREFIX_SHAPES: readonly ScannerShape[] = [
  bare("gitleaks", "1password-secret-key", join("A3-", fake(UPPER_ALNUM, 6), "-", fake(UPPER_ALNUM, 11), "-", fake(UPPER_ALNUM, 5), "-", fake(UPPER_ALNUM, 5), "-", fake(UPPER_ALNUM, 5))),
  bare("gitleaks", "1password-service-account-token", join("ops_ey", "J", fake(BASE64, 260))),
  bare("gitleaks", "adobe-client-secret", join("p8", "e-", fake(ALNUM, 32))),
  bare("gitleaks", "age-secret-key", join("AGE-SECRET-", "KEY-1", fake(AGE, 58))),
  bare("gitleaks", "anthropic-api-key", join("sk-", "ant-api03-", fake(BASE64URL, 93), "AA")),
  bare("gitleaks", "anthropic-admin-api-key", join("sk-", "ant-admin01-", fake(BASE64URL, 93), "AA")),
  bare("gitleaks", "artifactory-api-key", join("AK", "Cp", fake(ALNUM, 69))),
  bare("gitleaks", "artifactory-reference-token", join("cmV", "md", fake(ALNUM, 59))),
  bare("gitleaks", "aws-access-token (A3T)", join("A3", "T", fake(UPPER_ALNUM, 17))),
  bare("gitleaks", "aws-access-token (AKIA)", awsId),
  bare("gitleaks", "clickhouse-cloud-api-secret-key", join("4b", "1d", fake(ALNUM, 38))),
  bare("gitleaks", "clojars-api-token", join("CLOJARS", "_", fake(LOWER_ALNUM, 60))),
  bare("gitleaks", "cloudflare-origin-ca-key", join("v1.0", "-", fake(LOWER_HEX, 24), "-", fake(LOWER_HEX, 146))),
  bare("gitleaks", "databricks-api-token", join("da", "pi", fake(LOWER_HEX, 32))),
  bare("gitleaks", "digitalocean-pat", join("dop", "_v1_", fake(LOWER_HEX, 64))),
  bare("gitleaks", "digitalocean-access-token", join("doo", "_v1_", fake(LOWER_HEX, 64))),
  bare("gitleaks", "digitalocean-refresh-token", join("dor", "_v1_", fake(LOWER_HEX, 64))),
  bare("gitleaks", "doppler-api-token", join("dp.", "pt.", fake(ALNUM, 43))),
  bare("gitleaks", "duffel-api-token", join("duffel", "_live_", fake(BASE64URL, 43))),
  bare("gitleaks", "dynatrace-api-token", join("dt0c01", ".", fake(UPPER_ALNUM, 24), ".", fake(UPPER_ALNUM, 64))),
  bare("gitleaks", "easypost-api-token", join("EZ", "AK", fake(ALNUM, 54))),
  bare("gitleaks", "easypost-test-api-token", join("EZ", "TK", fake(ALNUM, 54))),
  bare("gitleaks", "facebook-page-access-token", join("EA", "AM", fake(ALNUM, 120))),
  bare("gitleaks", "flutterwave-secret-key", join("FLWSECK", "_TEST-", fake(LOWER_HEX, 32), "-X")),
  bare("gitleaks", "flyio-access-token (fo1)", join("fo", "1_", fake(BASE64URL, 43))),
  bare("gitleaks", "flyio-access-token (fm1a)", join("fm", "1a_", fake(BASE64, 120))),
  bare("gitleaks", "flyio-access-token (fm2)", join("fm", "2_", fake(BASE64, 120))),
  bare("gitleaks", "frameio-api-token", join("fio", "-u-", fake(BASE64URL, 64))),
  bare("gitleaks", "gcp-api-key", join("AI", "za", fake(BASE64URL, 35))),
  bare("gitleaks", "github-pat", join("gh", "p_", fake(ALNUM, 36))),
  bare("gitleaks", "github-oauth", join("gh", "o_", fake(ALNUM, 36))),
  bare("gitleaks", "github-app-token", join("gh", "s_", fake(ALNUM, 36))),
  bare("gitleaks", "github-refresh-token", join("gh", "r_", fake(ALNUM, 36))),
  bare("gitleaks", "github-fine-grained-pat", join("github", "_pat_", fake(ALNUM, 82))),
  bare("gitleaks", "gitlab-pat", join("gl", "pat-", fake(BASE64URL, 20))),
  bare("gitleaks", "gitlab-pat-routable", join("gl", "pat-", fake(BASE64URL, 27), ".", fake(LOWER_ALNUM, 9))),
  bare("gitleaks", "gitlab-cicd-job-token", join("gl", "cbt-", fake(ALNUM, 3), "_", fake(BASE64URL, 20))),
  bare("gitleaks", "gitlab-deploy-token", join("gl", "dt-", fake(BASE64URL, 20))),
  bare("gitleaks", "gitlab-feature-flag-client-token", join("gl", "ffct-", fake(BASE64URL, 20))),
  bare("gitleaks", "gitlab-feed-token", join("gl", "ft-", fake(BASE64URL, 20))),
  bare("gitleaks", "gitlab-incoming-mail-token", join("gl", "imt-", fake(BASE64URL, 25))),
  bare("gitleaks", "gitlab-kubernetes-agent-token", join("gl", "agent-", fake(BASE64URL, 50))),
  bare("gitleaks", "gitlab-oauth-app-secret", join("gl", "oas-", fake(BASE64URL, 64))),
  bare("gitleaks", "gitlab-ptt", join("gl", "ptt-", fake(LOWER_HEX, 40))),
  bare("gitleaks", "gitlab-rrt", join("GR13", "48941", fake(BASE64URL, 20))),
  bare("gitleaks", "gitlab-runner-authentication-token", join("gl", "rt-", fake(BASE64URL, 20))),
  bare("gitleaks", "gitlab-scim-token", join("gl", "soat-", fake(BASE64URL, 20))),
  keyed("gitleaks", "gitlab-session-cookie", "_gitlab_session", fake(LOWER_ALNUM, 32)),
  bare("gitleaks", "grafana-api-key", join("eyJr", "Ijoi", fake(ALNUM, 80))),
  bare("gitleaks", "grafana-cloud-api-token", join("gl", "c_", fake(BASE64, 40))),
  bare("gitleaks", "grafana-service-account-token", join("gl", "sa_", fake(ALNUM, 32), "_", fake(LOWER_HEX, 8))),
  bare("gitleaks", "harness-api-key", join("pat", ".", fake(BASE64URL, 22), ".", fake(ALNUM, 24), ".", fake(ALNUM, 20))),
  bare("gitleaks", "heroku-api-key-v2", join("HRKU", "-AA", fake(BASE64URL, 58))),
  bare("gitleaks", "huggingface-access-token", join("h", "f_", fake(ALNUM, 34))),
  bare("gitleaks", "huggingface-organization-api-token", join("api", "_org_", fake(ALNUM, 34))),
  bare("gitleaks", "infracost-api-token", join("ico", "-", fake(ALNUM, 32))),
  bare("gitleaks", "intra42-client-secret", join("s-s4t2", "ud-", fake(LOWER_HEX, 64))),
  bare("gitleaks", "jwt", fakeJwt()),
  bare("gitleaks", "jwt-base64", join("ZXlK", "aGJHY2lPaU", fake(ALNUM, 60))),
  bare("gitleaks", "linear-api-key", join("lin", "_api_", fake(ALNUM, 40))),
  bare("gitleaks", "mailgun-private-api-token", join("key", "-", fake(LOWER_HEX, 32))),
  bare("gitleaks", "new-relic-user-api-key", join("NR", "AK-", fake(UPPER_ALNUM, 27))),
  bare("gitleaks", "new-relic-browser-api-token", join("NR", "JS-", fake(LOWER_HEX, 19))),
  bare("gitleaks", "new-relic-insert-key", join("NR", "II-", fake(BASE64URL, 32))),
  bare("gitleaks", "npm-access-token", join("np", "m_", fake(ALNUM, 36))),
  bare("gitleaks", "openai-api-key", join("sk-", "proj-", fake(BASE64URL, 58), "T3Blbk", "FJ", fake(BASE64URL, 58))),
  bare("gitleaks", "planetscale-api-token", join("pscale", "_tkn_", fake(BASE64URL, 43))),
  bare("gitleaks", "planetscale-password", join("pscale", "_pw_", fake(BASE64URL, 43))),
  bare("gitleaks", "postman-api-token", join("PM", "AK-", fake(LOWER_HEX, 24), "-", fake(LOWER_HEX, 34))),
  bare("gitleaks", "prefect-api-token", join("pn", "u_", fake(ALNUM, 36))),
  bare("gitleaks", "pulumi-api-token", join("pu", "l-", fake(LOWER_HEX, 40))),
  bare("gitleaks", "pypi-upload-token", join("pypi", "-AgEIcHlwaS5vcmc", fake(BASE64URL, 60))),
  bare("gitleaks", "readme-api-token", join("rd", "me_", fake(LOWER_ALNUM, 70))),
  bare("gitleaks", "rubygems-api-token", join("ruby", "gems_", fake(LOWER_HEX, 48))),
  bare("gitleaks", "scalingo-api-token", join("tk", "-us-", fake(BASE64URL, 48))),
  bare("gitleaks", "sendgrid-api-token", join("S", "G.", fake(BASE64URL, 22), ".", fake(BASE64URL, 43))),
  bare("gitleaks", "sendinblue-api-token", join("xkey", "sib-", fake(LOWER_HEX, 64), "-", fake(ALNUM, 16))),
  bare("gitleaks", "sentry-org-token", join("sntry", "s_", fake(BASE64, 80))),
  bare("gitleaks", "sentry-user-token", join("sntry", "u_", fake(LOWER_HEX, 64))),
  bare("gitleaks", "shippo-api-token", join("shippo", "_live_", fake(LOWER_HEX, 40))),
  bare("gitleaks", "shopify-access-token", join("shp", "at_", fake(LOWER_HEX, 32))),
  bare("gitleaks", "shopify-custom-access-token", join("shp", "ca_", fake(LOWER_HEX, 32))),
  bare("gitleaks", "shopify-private-app-access-token", join("shp", "pa_", fake(LOWER_HEX, 32))),
  bare("gitleaks", "shopify-shared-secret", join("shp", "ss_", fake(LOWER_HEX, 32))),
  bare("gitleaks", "slack-bot-token", join("xo", "xb-", fake(DIGITS, 12), "-", fake(DIGITS, 13), "-", fake(ALNUM, 24))),
  bare("gitleaks", "slack-user-token", join("xo", "xp-", fake(DIGITS, 12), "-", fake(DIGITS, 12), "-", fake(DIGITS, 13), "-", fake(LOWER_HEX, 32))),
  bare("gitleaks", "slack-app-token", join("xa", "pp-1-", fake(UPPER_ALNUM, 11), "-", fake(DIGITS, 13), "-", fake(LOWER_HEX, 64))),
  bare("gitleaks", "slack-config-access-token", join("xo", "xe.xoxp-1-", fake(ALNUM, 163))),
  bare("gitleaks", "slack-config-refresh-token", join("xo", "xe-1-", fake(ALNUM, 146))),
  bare("gitleaks", "sourcegraph-access-token", join("sg", "p_", fake(LOWER_HEX, 16), "_", fake(LOWER_HEX, 40))),
  bare("gitleaks", "square-access-token", join("EA", "AA", fake(BASE64URL, 60))),
  bare("gitleaks", "square-secret (sq0csp)", join("sq0", "csp-", fake(BASE64URL, 43))),
  bare("gitleaks", "stripe-access-token (sk_live)", join("sk", "_live_", fake(ALNUM, 24))),
  bare("gitleaks", "stripe-access-token (rk_test)", join("rk", "_test_", fake(ALNUM, 24))),
  bare("gitleaks", "stripe webhook secret", join("wh", "sec_", fake(ALNUM, 32))),
  bare("gitleaks", "telegram-bot-api-token (in a URL path)", `https://api.telegram.org/bot${telegram}/getMe`),
  bare("gitleaks", "twilio-api-key", join("S", "K", fake(LOWER_HEX, 32))),
  bare("gitleaks", "typeform-api-token", join("tf", "p_", fake(BASE64URL, 59))),
  bare("gitleaks", "vault-service-token", join("hv", "s.", fake(BASE64URL, 90))),
  bare("gitleaks", "vault-batch-token", join("hv", "b.", fake(BASE64URL, 138))),
  bare("gitleaks", "private-key", `-----BEGIN OPENSSH PRIVATE KEY-----\n${fake(BASE64, 70)}\n-----END OPENSSH PRIVATE KEY-----`),
].map((shape) =>
  shape.rule.startsWith("telegram") ? { ...shape, secrets: [telegram.split(":")[1] as string] } : shape,
);

/** gitleaks' keyword rules (`<provider>…= value`) and its generic-api-key, by shape. */
export const GITLEAKS_KEYWORD_SHAPES: readonly ScannerShape[] = [
  keyed("gitleaks", "adafruit-api-key", "ADAFRUIT_KEY", fake(BASE64URL, 32)),
  keyed("gitleaks", "algolia-api-key", "algolia_api_key", fake(LOWER_ALNUM, 32)),
  keyed("gitleaks", "asana-client-secret", "ASANA_CLIENT_SECRET", fake(LOWER_ALNUM, 32)),
  keyed("gitleaks", "bitbucket-client-secret", "bitbucket_client_secret", fake(BASE64URL, 64)),
  keyed("gitleaks", "cloudflare-api-key", "CLOUDFLARE_API_KEY", fake(BASE64URL, 40)),
  keyed("gitleaks", "cohere-api-token", "CO_API_KEY", fake(ALNUM, 40)),
  keyed("gitleaks", "datadog-access-token", "DD_APP_KEY", fake(LOWER_ALNUM, 40)),
  keyed("gitleaks", "discord-client-secret", "DISCORD_CLIENT_SECRET", fake(BASE64URL, 32)),
  keyed("gitleaks", "dropbox-api-token", "DROPBOX_ACCESS_TOKEN", fake(LOWER_ALNUM, 15)),
  keyed("gitleaks", "facebook-secret", "FACEBOOK_APP_SECRET", fake(LOWER_HEX, 32)),
  keyed("gitleaks", "fastly-api-token", "FASTLY_API_TOKEN", fake(BASE64URL, 32)),
  keyed("gitleaks", "heroku-api-key", "HEROKU_API_KEY", uuid(LOWER_HEX)),
  keyed("gitleaks", "hubspot-api-key", "HUBSPOT_KEY", uuid(UPPER_HEX)),
  keyed("gitleaks", "mailchimp-api-key", "MAILCHIMP_KEY", join(fake(LOWER_HEX, 32), "-us12")),
  keyed("gitleaks", "okta-access-token", "OKTA_TOKEN", join("00", fake(BASE64URL, 40))),
  keyed("gitleaks", "generic-api-key (creds)", "service_creds", fake(ALNUM, 32)),
  keyed("gitleaks", "database-password", "db_password", fake(ALNUM, 16)),
  {
    scanner: "gitleaks",
    rule: "curl-auth-header",
    text: `curl -H "X-Api-Key: ${fake(ALNUM, 32)}" https://api.example.com/v1/items`,
    secrets: [],
  },
  {
    scanner: "gitleaks",
    rule: "curl-auth-user",
    text: `curl --user deploy:${fake(ALNUM, 20)} https://example.com/upload`,
    secrets: [],
  },
].map((shape) =>
  shape.secrets.length > 0 ? shape : { ...shape, secrets: [shape.text.match(/[A-Za-z0-9]{20,}/)?.[0] as string] },
);

/** trufflehog detectors: newer provider prefixes, key-id-and-secret pairs, tokens in URLs. */
export const TRUFFLEHOG_SHAPES: readonly ScannerShape[] = [
  bare("trufflehog", "OpenAI project key", join("sk-", "proj-", fake(BASE64URL, 120))),
  bare("trufflehog", "OpenRouter", join("sk-", "or-v1-", fake(LOWER_HEX, 64))),
  bare("trufflehog", "Groq", join("gs", "k_", fake(ALNUM, 52))),
  bare("trufflehog", "xAI", join("xa", "i-", fake(ALNUM, 80))),
  bare("trufflehog", "Perplexity", join("pp", "lx-", fake(ALNUM, 48))),
  bare("trufflehog", "Replicate", join("r", "8_", fake(ALNUM, 37))),
  bare("trufflehog", "NVIDIA NIM", join("nv", "api-", fake(BASE64URL, 64))),
  bare("trufflehog", "Tavily", join("tv", "ly-", fake(ALNUM, 32))),
  bare("trufflehog", "LangSmith", join("lsv2", "_pt_", fake(LOWER_HEX, 32), "_", fake(LOWER_HEX, 10))),
  bare("trufflehog", "Notion", join("nt", "n_", fake(ALNUM, 46))),
  bare("trufflehog", "Airtable PAT", join("pat", fake(ALNUM, 14), ".", fake(LOWER_HEX, 64))),
  bare("trufflehog", "Docker Hub PAT", join("dckr", "_pat_", fake(BASE64URL, 27))),
  bare("trufflehog", "Render", join("rn", "d_", fake(ALNUM, 32))),
  bare("trufflehog", "Netlify", join("nf", "p_", fake(ALNUM, 40))),
  bare("trufflehog", "Supabase", join("sb", "p_", fake(LOWER_HEX, 40))),
  bare("trufflehog", "Brevo SMTP key", join("xsmtp", "sib-", fake(LOWER_HEX, 64), "-", fake(ALNUM, 16))),
  bare("trufflehog", "Atlassian", join("ATA", "TT3", fake(BASE64URL, 186))),
  bare("trufflehog", "Mapbox secret", join("sk", ".eyJ1", fake(BASE64URL, 60), ".", fake(BASE64URL, 22))),
  {
    scanner: "trufflehog",
    rule: "AWS key id and secret joined by a colon",
    text: `credentials ${awsId}:${awsSecret} loaded from the profile`,
    secrets: [awsId, awsSecret],
  },
  {
    scanner: "trufflehog",
    rule: "Twilio account SID and auth token joined by a colon",
    text: `curl -s https://api.twilio.com/2010-04-01/Accounts -u ${twilioSid}:${twilioToken}`,
    secrets: [twilioToken],
  },
  {
    scanner: "trufflehog",
    rule: "GitHub token as the userinfo of a clone URL",
    text: `git clone https://${githubInUrl}@github.com/acme/app.git`,
    secrets: [githubInUrl],
  },
  {
    scanner: "trufflehog",
    rule: "opaque token as the userinfo of a URL",
    text: `fetching https://${opaqueUser}@git.example.com/acme/app.git`,
    secrets: [opaqueUser],
  },
  {
    scanner: "trufflehog",
    rule: "Telegram bot token in a URL path",
    text: `POST https://api.telegram.org/bot${telegram}/sendMessage 200`,
    secrets: [telegram.split(":")[1] as string],
  },
];
