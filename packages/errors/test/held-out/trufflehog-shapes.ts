import {
  ALNUM,
  BASE64,
  BASE64URL,
  fake,
  fakeJwt,
  LETTERS,
  LOWER_HEX,
  UPPER_ALNUM,
} from "../redaction-corpus/fake-credentials.js";
import {
  bare,
  DIGITS,
  join,
  keyed,
  LOWER_ALNUM,
  type ScannerShape,
  UPPER_HEX,
  uuid,
} from "./scanner-shape.js";

const awsId = join("AS", "IA", fake(UPPER_ALNUM, 16));
const awsSecret = fake(BASE64, 40);
const telegram = join(fake(DIGITS, 9), ":AA", fake(BASE64URL, 33));
const twilioSid = join("A", "C", fake(LOWER_HEX, 32));
const twilioToken = fake(LOWER_HEX, 32);
const githubInUrl = join("gh", "p_", fake(ALNUM, 36));
const opaqueUser = fake(ALNUM, 40);
const gitlabV3 = join("gl", "pat-", fake(BASE64URL, 31), ".01.", fake(LOWER_ALNUM, 9));
const discordBot = join(fake(BASE64URL, 24), ".", fake(BASE64URL, 6), ".", fake(BASE64URL, 27));
const pemBody = fake(BASE64, 64);
const gcpKeyId = fake(LOWER_HEX, 40);
const azureAccountKey = join(fake(BASE64, 86), "==");
const ftpPassword = fake(ALNUM, 12);
const splunkToken = uuid(LOWER_HEX);
const genieKey = uuid(LOWER_HEX);

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
  bare("trufflehog", "AWS (ABIA key id)", join("AB", "IA", fake(UPPER_ALNUM, 16))),
  bare("trufflehog", "Azure Entra client secret", join(fake(ALNUM, 3), "7", "Q~", fake(BASE64URL, 31))),
  {
    scanner: "trufflehog",
    rule: "Azure storage connection string",
    text: `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${azureAccountKey};EndpointSuffix=core.windows.net`,
    secrets: [azureAccountKey],
  },
  {
    scanner: "trufflehog",
    rule: "GCP service account key (JSON on one line)",
    text: `{"type": "service_account", "project_id": "acme", "private_key_id": "${gcpKeyId}", "private_key": "-----BEGIN PRIVATE KEY-----\\n${pemBody}\\n-----END PRIVATE KEY-----\\n", "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs"}`,
    secrets: [gcpKeyId, pemBody],
  },
  bare("trufflehog", "GitHub (long token body)", join("gh", "p_", fake(ALNUM, 60))),
  {
    scanner: "trufflehog",
    rule: "GitLab v3 routable token",
    text: `request failed using ${gitlabV3} for the deploy`,
    secrets: [gitlabV3, gitlabV3.slice(-13)],
  },
  bare(
    "trufflehog",
    "Slack workspace token",
    join("xo", "xa-", fake(DIGITS, 11), "-", fake(DIGITS, 12), "-", fake(ALNUM, 24)),
  ),
  bare("trufflehog", "Square application secret", join("sq0", "csp-", fake(BASE64URL, 43))),
  bare("trufflehog", "Stripe restricted live key", join("rk", "_live_", fake(ALNUM, 28))),
  keyed("trufflehog", "Twilio auth token by keyword", "TWILIO_AUTH_TOKEN", fake(LOWER_HEX, 32)),
  keyed("trufflehog", "Mailgun by keyword", "MAILGUN_API_KEY", fake(ALNUM, 72)),
  keyed("trufflehog", "npm legacy token by keyword", "NPM_TOKEN", uuid(LOWER_HEX)),
  bare(
    "trufflehog",
    "OpenAI service account key",
    join("sk-", "svcacct-", fake(BASE64URL, 74), "T3Blbk", "FJ", fake(BASE64URL, 74)),
  ),
  bare("trufflehog", "Anthropic", join("sk-", "ant-api03-", fake(BASE64URL, 93), "AA")),
  bare("trufflehog", "Hugging Face", join("h", "f_", fake(ALNUM, 34))),
  keyed("trufflehog", "Datadog API key by keyword", "DATADOG_API_KEY", fake(LOWER_HEX, 32)),
  keyed("trufflehog", "Datadog application key by keyword", "DATADOG_APPLICATION_KEY", fake(LOWER_HEX, 40)),
  bare("trufflehog", "Shopify", join("shp", "at_", fake(LOWER_HEX, 32))),
  {
    scanner: "trufflehog",
    rule: "Discord bot token after the Bot scheme",
    text: `curl -H "Authorization: Bot ${discordBot}" https://discord.com/api/v10/users/@me`,
    secrets: [discordBot],
  },
  keyed("trufflehog", "Discord bot token by keyword", "DISCORD_BOT_TOKEN", discordBot),
  keyed(
    "trufflehog",
    "Telegram bot token by keyword",
    "TELEGRAM_TOKEN",
    join(fake(DIGITS, 10), ":AA", fake(BASE64URL, 33)),
  ),
  bare("trufflehog", "DigitalOcean", join("dop", "_v1_", fake(LOWER_HEX, 64))),
  keyed("trufflehog", "Heroku by keyword", "HEROKU_API_KEY", uuid(LOWER_HEX)),
  bare("trufflehog", "Linear", join("lin", "_api_", fake(ALNUM, 40))),
  bare("trufflehog", "Notion (secret_)", join("sec", "ret_", fake(ALNUM, 43))),
  bare("trufflehog", "Postman", join("PM", "AK-", fake(LOWER_HEX, 24), "-", fake(LOWER_HEX, 34))),
  bare("trufflehog", "Doppler service token", join("dp.", "st.", fake(ALNUM, 40))),
  bare("trufflehog", "HashiCorp Vault", join("hv", "s.", fake(BASE64URL, 90))),
  bare("trufflehog", "JWT", fakeJwt()),
  {
    scanner: "trufflehog",
    rule: "private key",
    text: `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----`,
    secrets: [pemBody],
  },
  {
    scanner: "trufflehog",
    rule: "URI with a password (ftp)",
    text: `mirror ftp://mirror:${ftpPassword}@ftp.example.com/pub failed`,
    secrets: [ftpPassword],
  },
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
  bare("trufflehog", "Figma personal access token (figd_)", join("fig", "d_", fake(BASE64URL, 40))),
  bare("trufflehog", "Figma personal access token (figp_)", join("fig", "p_", fake(BASE64URL, 48))),
  bare("trufflehog", "Pinecone", join("pc", "sk_", fake(ALNUM, 6), "_", fake(ALNUM, 63))),
  bare("trufflehog", "Buildkite", join("bk", "ua_", fake(LOWER_HEX, 40))),
  bare(
    "trufflehog",
    "CircleCI personal token",
    join("CCI", "PAT_", fake(ALNUM, 22), "_", fake(LOWER_HEX, 40)),
  ),
  bare(
    "trufflehog",
    "CircleCI project token",
    join("CCI", "PRJ_", fake(ALNUM, 22), "_", fake(LOWER_HEX, 40)),
  ),
  bare("trufflehog", "Tailscale auth key", join("ts", "key-auth-k", fake(ALNUM, 16), "-", fake(ALNUM, 33))),
  bare("trufflehog", "Tailscale API key", join("ts", "key-api-k", fake(ALNUM, 16), "-", fake(ALNUM, 33))),
  bare("trufflehog", "PostHog project key", join("ph", "c_", fake(ALNUM, 43))),
  bare("trufflehog", "PostHog personal key", join("ph", "x_", fake(ALNUM, 47))),
  bare("trufflehog", "HubSpot private app token", join("pat", "-na1-", uuid(LOWER_HEX))),
  bare("trufflehog", "ElevenLabs", join("s", "k_", fake(LOWER_HEX, 48))),
  bare("trufflehog", "Supabase secret key", join("sb", "_secret_", fake(BASE64URL, 31))),
  bare(
    "trufflehog",
    "Atlassian / Bitbucket access token (ATCTT3)",
    join("ATC", "TT3xFfGN0", fake(BASE64URL, 180), "=", fake(UPPER_HEX, 8)),
  ),
  bare("trufflehog", "Dropbox short-lived token", join("s", "l.", fake(BASE64URL, 135))),
  bare("trufflehog", "Mailchimp (bare)", join(fake(LOWER_HEX, 32), "-us", "12")),
  bare("trufflehog", "Apify", join("apify", "_api_", fake(ALNUM, 36))),
  bare("trufflehog", "DataStax Astra", join("Astra", "CS:", fake(LETTERS, 24), ":", fake(LOWER_HEX, 64))),
  bare("trufflehog", "ClickUp personal token", join("p", "k_", fake(DIGITS, 8), "_", fake(UPPER_HEX, 32))),
  bare("trufflehog", "SonarQube user token", join("sq", "u_", fake(LOWER_HEX, 40))),
  bare("trufflehog", "SonarQube project token", join("sq", "p_", fake(LOWER_HEX, 40))),
  bare(
    "trufflehog",
    "PayPal Braintree access token",
    join("access_token", "$production$", fake(LOWER_ALNUM, 16), "$", fake(LOWER_HEX, 32)),
  ),
  keyed("trufflehog", "Azure DevOps PAT by keyword", "AZURE_DEVOPS_EXT_PAT", fake(LOWER_ALNUM, 52)),
  {
    scanner: "trufflehog",
    rule: "Splunk HEC token after its own scheme",
    text: `curl -H "Authorization: Splunk ${splunkToken}" https://splunk.example.com:8088/services/collector`,
    secrets: [splunkToken],
  },
  {
    scanner: "trufflehog",
    rule: "Opsgenie key after its own scheme",
    text: `Authorization: GenieKey ${genieKey}`,
    secrets: [genieKey],
  },
  {
    scanner: "trufflehog",
    rule: "Telegram bot token in a URL path",
    text: `POST https://api.telegram.org/bot${telegram}/sendMessage 200`,
    secrets: [telegram.split(":")[1] as string],
  },
];
