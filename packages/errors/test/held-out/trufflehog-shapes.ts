import {
  ALNUM,
  BASE64,
  BASE64URL,
  fake,
  LOWER_HEX,
  UPPER_ALNUM,
} from "../redaction-corpus/fake-credentials.js";
import { bare, DIGITS, join, type ScannerShape } from "./scanner-shape.js";

const awsId = join("AS", "IA", fake(UPPER_ALNUM, 16));
const awsSecret = fake(BASE64, 40);
const telegram = join(fake(DIGITS, 9), ":AA", fake(BASE64URL, 33));
const twilioSid = join("A", "C", fake(LOWER_HEX, 32));
const twilioToken = fake(LOWER_HEX, 32);
const githubInUrl = join("gh", "p_", fake(ALNUM, 36));
const opaqueUser = fake(ALNUM, 40);

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
