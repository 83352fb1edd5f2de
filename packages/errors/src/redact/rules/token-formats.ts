import {
  isAlnum,
  isAsciiLetter,
  isBase64Char,
  isHexChar,
  isLowerHexChar,
  isNameChar,
  isTokenChar,
  isUpperAlnum,
} from "../char-classes.js";
import { INNER_TOKEN_FORMATS } from "./inner-token-formats.js";
import { run, type Shape } from "./token-shape.js";

/** A provider's token format: its published prefixes and the shape of the body after them. */
export interface TokenFormat {
  readonly provider: string;
  readonly prefixes: readonly string[];
  readonly body: Shape;
  /** An optional continuation matched after the body (the last two segments of a five-segment JWT). */
  readonly tail?: Shape;
  /** The token must start a whole run: not after `-` or `.` either (keeps a run of `-eyJ` linear). */
  readonly wholeRun?: boolean;
  /**
   * What stands before the prefix when the token's fixed part is inside it (Azure's `abc8Q~…`):
   * read backwards from the prefix, bounded (well within a RepeatSkipper's reads before a step);
   * the token starts where it does.
   */
  readonly lead?: Shape;
}

const ANY = Number.POSITIVE_INFINITY;
// Base64url of a JOSE header: an algorithm, a key id, even a certificate chain fit in this.
const MAX_JWT_HEADER = 8192;
const isAlnumOrDash = (code: number): boolean => isAlnum(code) || code === 45;
const isBase64OrPadding = (code: number): boolean => isBase64Char(code) || code === 61;
const isUrlSafeBase64OrPadding = (code: number): boolean => isTokenChar(code) || code === 61;
const isBase64WithUnderscore = (code: number): boolean => isBase64OrPadding(code) || code === 95;
const isBitbucketChar = (code: number): boolean => isTokenChar(code) || code === 61 || code === 46;
const isLowerAlnum = (code: number): boolean => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
const isLowerAlnumOrDot = (code: number): boolean => isLowerAlnum(code) || code === 46;
const isTwitterChar = (code: number): boolean => isAlnum(code) || code === 37;
const isUpperAlnumOrDash = (code: number): boolean => isUpperAlnum(code) || code === 45;
const isDigitChar = (code: number): boolean => code >= 48 && code <= 57;
const isJoiner = (code: number): boolean => code === 45 || code === 95;
const isAuthressKeyChar = (code: number): boolean => isBase64WithUnderscore(code) || code === 45;
const isLowerLetter = (code: number): boolean => code >= 97 && code <= 122;
const isTokenCharOrDot = (code: number): boolean => isTokenChar(code) || code === 46;

// Prefixes and lengths are the providers' documented formats (and those that public secret
// scanners key on). A token is only matched as a whole: the character before the prefix and
// the one after the body must not continue it.
export const TOKEN_FORMATS: readonly TokenFormat[] = [
  { provider: "OpenAI, Anthropic and other sk- keys", prefixes: ["sk-"], body: [run(isTokenChar, 12, ANY)] },
  {
    provider: "GitHub",
    prefixes: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    body: [run(isNameChar, 20, ANY)],
  },
  {
    provider: "GitLab",
    prefixes: [
      "glpat-",
      "gldt-",
      "glrt-",
      "glptt-",
      "gloas-",
      "glcbt-",
      "glsoat-",
      "glffct-",
      "glimt-",
      "glagent-",
      "glft-",
    ],
    body: [run(isTokenChar, 20, ANY)],
    // A routable token ends in `.` and a base-36 check part: `.xxxxxxxxx` or `.xx.xxxxxxxxx`.
    tail: [".", run(isLowerAlnumOrDot, 9, 12)],
  },
  { provider: "GitLab runner registration", prefixes: ["GR1348941"], body: [run(isTokenChar, 20, ANY)] },
  {
    provider: "AWS access key id (and its secret after a colon)",
    prefixes: ["AKIA", "ASIA", "ABIA", "ACCA"],
    body: [run(isUpperAlnum, 16)],
    tail: [":", run(isBase64OrPadding, 40)],
  },
  { provider: "AWS access key id (A3T)", prefixes: ["A3T"], body: [run(isUpperAlnum, 17)] },
  {
    provider: "Slack",
    prefixes: [
      "xoxb-",
      "xoxp-",
      "xoxa-",
      "xoxr-",
      "xoxs-",
      "xoxo-",
      "xoxe-",
      "xoxe.xoxp-",
      "xoxe.xoxb-",
      "xapp-",
    ],
    body: [run(isAlnumOrDash, 10, ANY)],
  },
  {
    provider: "Stripe",
    prefixes: [
      ...["sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_", "pk_live_", "pk_test_"],
      "whsec_",
    ],
    body: [run(isAlnum, 16, ANY)],
  },
  { provider: "npm", prefixes: ["npm_"], body: [run(isAlnum, 36)] },
  { provider: "PyPI", prefixes: ["pypi-AgE"], body: [run(isTokenChar, 40, ANY)] },
  { provider: "Hugging Face", prefixes: ["hf_", "api_org_"], body: [run(isAlnum, 30, ANY)] },
  { provider: "SendGrid", prefixes: ["SG."], body: [run(isTokenChar, 22), ".", run(isTokenChar, 43)] },
  { provider: "DigitalOcean", prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"], body: [run(isLowerHexChar, 64)] },
  { provider: "Google API key", prefixes: ["AIza"], body: [run(isTokenChar, 35)] },
  { provider: "Google OAuth access token", prefixes: ["ya29."], body: [run(isTokenChar, 20, ANY)] },
  { provider: "Google OAuth client secret", prefixes: ["GOCSPX-"], body: [run(isTokenChar, 28)] },
  { provider: "Twilio API key", prefixes: ["SK"], body: [run(isLowerHexChar, 32)] },
  { provider: "Mailgun", prefixes: ["key-", "pubkey-"], body: [run(isLowerHexChar, 32)] },
  { provider: "Shopify", prefixes: ["shpat_", "shpca_", "shppa_", "shpss_"], body: [run(isHexChar, 32)] },
  // API tokens (`ATATT3`) and Bitbucket and organisation access tokens (`ATCTT3`).
  { provider: "Atlassian", prefixes: ["ATATT3", "ATCTT3"], body: [run(isUrlSafeBase64OrPadding, 50, ANY)] },
  { provider: "Bitbucket", prefixes: ["ATBB"], body: [run(isBitbucketChar, 32, ANY)] },
  { provider: "Linear", prefixes: ["lin_api_"], body: [run(isAlnum, 40)] },
  { provider: "Groq", prefixes: ["gsk_"], body: [run(isAlnum, 48, 56)] },
  { provider: "Replicate", prefixes: ["r8_"], body: [run(isAlnum, 37)] },
  { provider: "Perplexity", prefixes: ["pplx-"], body: [run(isAlnum, 48)] },
  { provider: "xAI", prefixes: ["xai-"], body: [run(isAlnum, 40, ANY)] },
  { provider: "Tavily", prefixes: ["tvly-"], body: [run(isTokenChar, 32, ANY)] },
  { provider: "LangSmith", prefixes: ["lsv2_pt_", "lsv2_sk_"], body: [run(isNameChar, 30, ANY)] },
  { provider: "HashiCorp Vault", prefixes: ["hvs.", "hvb.", "hvr."], body: [run(isTokenChar, 24, ANY)] },
  {
    provider: "Doppler",
    prefixes: ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."],
    body: [run(isAlnum, 40, ANY)],
  },
  { provider: "Pulumi", prefixes: ["pul-"], body: [run(isLowerHexChar, 40)] },
  {
    provider: "Postman",
    prefixes: ["PMAK-"],
    body: [run(isLowerHexChar, 24), "-", run(isLowerHexChar, 34)],
  },
  { provider: "Supabase", prefixes: ["sbp_"], body: [run(isLowerHexChar, 40)] },
  { provider: "Sentry user token", prefixes: ["sntryu_"], body: [run(isLowerHexChar, 64)] },
  { provider: "Sentry org token", prefixes: ["sntrys_"], body: [run(isBase64WithUnderscore, 50, ANY)] },
  // A workspace-scoped token may end in `-` and a digit (`dapi…-2`), which is part of it.
  {
    provider: "Databricks",
    prefixes: ["dapi"],
    body: [run(isLowerHexChar, 32)],
    tail: ["-", run(isDigitChar, 1)],
  },
  { provider: "age secret key", prefixes: ["AGE-SECRET-KEY-1"], body: [run(isUpperAlnum, 58)] },
  { provider: "Grafana Cloud", prefixes: ["glc_"], body: [run(isBase64OrPadding, 32, ANY)] },
  { provider: "Grafana service account", prefixes: ["glsa_"], body: [run(isNameChar, 40, ANY)] },
  { provider: "New Relic", prefixes: ["NRAK-"], body: [run(isUpperAlnum, 27)] },
  { provider: "Docker Hub", prefixes: ["dckr_pat_", "dckr_oat_"], body: [run(isTokenChar, 20, ANY)] },
  { provider: "Square", prefixes: ["sq0atp-", "sq0csp-"], body: [run(isTokenChar, 22, ANY)] },
  { provider: "Fly.io", prefixes: ["fo1_"], body: [run(isUrlSafeBase64OrPadding, 40, ANY)] },
  // Macaroons, in standard base64: `+` and `/` are part of the token.
  {
    provider: "Fly.io macaroon",
    prefixes: ["fm1_", "fm1a_", "fm1r_", "fm2_"],
    body: [run(isBase64OrPadding, 100, ANY)],
  },
  { provider: "Netlify", prefixes: ["nfp_"], body: [run(isAlnum, 36, ANY)] },
  { provider: "Render", prefixes: ["rnd_"], body: [run(isAlnum, 32, ANY)] },
  { provider: "Heroku", prefixes: ["HRKU-"], body: [run(isTokenChar, 40, ANY)] },
  { provider: "RubyGems", prefixes: ["rubygems_"], body: [run(isLowerHexChar, 48)] },
  { provider: "NuGet", prefixes: ["oy2"], body: [run(isLowerAlnum, 43)] },
  { provider: "crates.io", prefixes: ["cio"], body: [run(isAlnum, 32)] },
  { provider: "Clojars", prefixes: ["CLOJARS_"], body: [run(isAlnum, 60)] },
  { provider: "JFrog", prefixes: ["AKCp"], body: [run(isAlnum, 60, ANY)] },
  { provider: "Alibaba Cloud access key id", prefixes: ["LTAI"], body: [run(isAlnum, 20)] },
  { provider: "Tencent Cloud secret id", prefixes: ["AKID"], body: [run(isAlnum, 32)] },
  {
    provider: "Dynatrace",
    prefixes: ["dt0c01."],
    body: [run(isUpperAlnum, 24), ".", run(isUpperAlnum, 64)],
  },
  { provider: "Adafruit IO", prefixes: ["aio_"], body: [run(isAlnum, 28)] },
  { provider: "Contentful", prefixes: ["CFPAT-"], body: [run(isTokenChar, 43)] },
  {
    provider: "PlanetScale",
    prefixes: ["pscale_tkn_", "pscale_pw_", "pscale_oauth_"],
    body: [run(isTokenChar, 32, ANY)],
  },
  { provider: "Prefect", prefixes: ["pnu_"], body: [run(isAlnum, 36)] },
  { provider: "ReadMe", prefixes: ["rdme_"], body: [run(isAlnum, 70)] },
  { provider: "Shippo", prefixes: ["shippo_live_", "shippo_test_"], body: [run(isLowerHexChar, 40)] },
  { provider: "Typeform", prefixes: ["tfp_"], body: [run(isTokenChar, 44, ANY)] },
  { provider: "Duffel", prefixes: ["duffel_live_", "duffel_test_"], body: [run(isTokenChar, 43)] },
  { provider: "EasyPost", prefixes: ["EZAK", "EZTK"], body: [run(isAlnum, 54)] },
  { provider: "Notion", prefixes: ["ntn_", "secret_"], body: [run(isAlnum, 43, 46)] },
  { provider: "Airtable", prefixes: ["pat"], body: [run(isAlnum, 14), ".", run(isLowerHexChar, 64)] },
  {
    // Secret and public keys (32 hex digits and `-X`), and encryption keys (12 hex digits).
    provider: "Flutterwave",
    prefixes: ["FLWSECK-", "FLWSECK_TEST-", "FLWPUBK-", "FLWPUBK_TEST-"],
    body: [run(isLowerHexChar, 12, 32)],
    tail: ["-X"],
  },
  {
    provider: "Firebase Cloud Messaging server key",
    prefixes: ["AAAA"],
    body: [run(isTokenChar, 7), ":", run(isTokenChar, 100, ANY)],
  },
  {
    provider: "Twitter/X bearer token",
    prefixes: ["AAAAAAAAAAAAAAAAAAAAA"],
    body: [run(isTwitterChar, 30, ANY)],
  },
  {
    provider: "Facebook and Square access tokens",
    prefixes: ["EAACEdEose0cBA", "EAAA"],
    body: [run(isTokenChar, 40, ANY)],
  },
  { provider: "Facebook page access token", prefixes: ["EAAM", "EAAC"], body: [run(isAlnum, 100, ANY)] },
  {
    provider: "Mapbox secret token",
    prefixes: ["sk.eyJ"],
    body: [run(isTokenChar, 20, ANY), ".", run(isTokenChar, 20, ANY)],
  },
  {
    provider: "1Password secret key",
    prefixes: ["A3-"],
    body: [run(isUpperAlnum, 6), "-", run(isUpperAlnumOrDash, 29, 30)],
  },
  { provider: "1Password service account", prefixes: ["ops_eyJ"], body: [run(isBase64OrPadding, 250, ANY)] },
  { provider: "Adobe client secret", prefixes: ["p8e-"], body: [run(isAlnum, 32)] },
  { provider: "Artifactory reference token", prefixes: ["cmVmd"], body: [run(isAlnum, 59)] },
  { provider: "ClickHouse Cloud", prefixes: ["4b1d"], body: [run(isAlnum, 38)] },
  {
    provider: "Cloudflare origin CA key",
    prefixes: ["v1.0-"],
    body: [run(isLowerHexChar, 24), "-", run(isLowerHexChar, 146)],
  },
  { provider: "Frame.io", prefixes: ["fio-u-"], body: [run(isUrlSafeBase64OrPadding, 64)] },
  { provider: "Grafana API key", prefixes: ["eyJrIjoi"], body: [run(isBase64OrPadding, 70, 400)] },
  {
    provider: "Harness PAT and SAT",
    prefixes: ["pat.", "sat."],
    body: [run(isTokenChar, 22), ".", run(isAlnum, 24), ".", run(isAlnum, 20)],
  },
  { provider: "Infracost", prefixes: ["ico-"], body: [run(isAlnum, 32)] },
  { provider: "42 intra", prefixes: ["s-s4t2ud-", "s-s4t2af-"], body: [run(isLowerHexChar, 64)] },
  { provider: "Base64-encoded JWT", prefixes: ["ZXlK"], body: [run(isBase64OrPadding, 40, ANY)] },
  { provider: "New Relic browser key", prefixes: ["NRJS-"], body: [run(isLowerHexChar, 19)] },
  { provider: "New Relic insert key", prefixes: ["NRII-"], body: [run(isTokenChar, 32)] },
  { provider: "Scalingo", prefixes: ["tk-us-"], body: [run(isTokenChar, 48)] },
  {
    provider: "Brevo (Sendinblue)",
    prefixes: ["xkeysib-", "xsmtpsib-"],
    body: [run(isLowerHexChar, 64), "-", run(isAlnum, 16)],
  },
  { provider: "Sourcegraph", prefixes: ["sgp_"], body: [run(isNameChar, 40, 62)] },
  { provider: "NVIDIA", prefixes: ["nvapi-"], body: [run(isTokenChar, 64)] },
  { provider: "Octopus Deploy", prefixes: ["API-"], body: [run(isUpperAlnum, 26)] },
  { provider: "OpenShift user token", prefixes: ["sha256~"], body: [run(isTokenChar, 43)] },
  { provider: "SettleMint", prefixes: ["sm_aat_", "sm_pat_", "sm_sat_"], body: [run(isAlnum, 16)] },
  {
    provider: "Defined Networking",
    prefixes: ["dnkey-"],
    // Two segments joined by `-`, which is also a body character: one run.
    body: [run(isUrlSafeBase64OrPadding, 79)],
  },
  {
    provider: "Authress service client access key",
    prefixes: ["sc_", "ext_", "scauth_", "authress_"],
    body: [
      run(isAlnum, 5, 30),
      ".",
      run(isAlnum, 4, 6),
      ".acc",
      run(isJoiner, 1),
      run(isAlnumOrDash, 10, 32),
      ".",
      run(isAuthressKeyChar, 30, 120),
    ],
  },
  { provider: "Figma", prefixes: ["figd_", "figp_"], body: [run(isUrlSafeBase64OrPadding, 40, 54)] },
  {
    provider: "Pinecone",
    prefixes: ["pcsk_"],
    body: [run(isAlnum, 4, 8), "_", run(isAlnum, 40, ANY)],
  },
  { provider: "Buildkite", prefixes: ["bkua_"], body: [run(isLowerHexChar, 40)] },
  {
    provider: "CircleCI",
    prefixes: ["CCIPAT_", "CCIPRJ_"],
    body: [run(isAlnum, 22), "_", run(isLowerHexChar, 40)],
  },
  { provider: "Amazon Bedrock", prefixes: ["ABSK"], body: [run(isBase64OrPadding, 109, ANY)] },
  {
    // A short-term key: a fixed part (base64 of `bedrock.amazonaws.com`), then a presigned URL.
    provider: "Amazon Bedrock short-term key",
    prefixes: ["bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t"],
    body: [run(isBase64OrPadding, 20, ANY)],
  },
  {
    // `tskey-auth-<id>-<secret>`, `tskey-api-…`, `tskey-client-…`: the kind, an id and the secret.
    provider: "Tailscale",
    prefixes: ["tskey-"],
    body: [run(isLowerLetter, 3, 16), "-", run(isNameChar, 6, 64), "-", run(isNameChar, 16, ANY)],
  },
  { provider: "PostHog", prefixes: ["phc_", "phx_"], body: [run(isNameChar, 32, ANY)] },
  {
    provider: "HubSpot private app token",
    prefixes: ["pat-na1-", "pat-eu1-"],
    body: [
      run(isAlnum, 8),
      "-",
      run(isAlnum, 4),
      "-",
      run(isAlnum, 4),
      "-",
      run(isAlnum, 4),
      "-",
      run(isAlnum, 12),
    ],
  },
  { provider: "ElevenLabs", prefixes: ["sk_"], body: [run(isLowerHexChar, 48)] },
  { provider: "Supabase secret key", prefixes: ["sb_secret_"], body: [run(isTokenChar, 24, ANY)] },
  // Short-lived tokens: `sl.` and 130 or more characters (`sl.u.…` in the newer form).
  { provider: "Dropbox", prefixes: ["sl."], body: [run(isTokenCharOrDot, 130, ANY)] },
  { provider: "Apify", prefixes: ["apify_api_"], body: [run(isAlnumOrDash, 36)] },
  {
    provider: "DataStax Astra",
    prefixes: ["AstraCS:"],
    body: [run(isAsciiLetter, 24), ":", run(isLowerHexChar, 64)],
  },
  { provider: "ClickUp", prefixes: ["pk_"], body: [run(isDigitChar, 7, 8), "_", run(isUpperAlnum, 32)] },
  { provider: "SonarQube", prefixes: ["squ_", "sqp_", "sqa_"], body: [run(isLowerHexChar, 40)] },
  {
    provider: "PayPal Braintree access token",
    prefixes: ["access_token$production$", "access_token$sandbox$"],
    body: [run(isLowerAlnum, 16), "$", run(isLowerHexChar, 32)],
  },
  {
    provider: "Telegram bot token in a URL path",
    prefixes: ["bot"],
    body: [run(isDigitChar, 5, 16), ":", run(isTokenChar, 35)],
  },
  {
    provider: "JWT (three or five segments)",
    prefixes: ["eyJ"],
    // A header is a small JSON object: a longer run is not one, and reading on would cost a
    // run of `eyJeyJ…` its whole length before the missing `.` ends the match.
    // An unsigned token (`alg: none`) ends with its second dot: it is still a bearer credential.
    body: [run(isTokenChar, 5, MAX_JWT_HEADER), ".", run(isTokenChar, 8, ANY), ".", run(isTokenChar, 0, ANY)],
    tail: [".", run(isTokenChar, 8, ANY), ".", run(isTokenChar, 8, ANY)],
    wholeRun: true,
  },
  ...INNER_TOKEN_FORMATS,
];
