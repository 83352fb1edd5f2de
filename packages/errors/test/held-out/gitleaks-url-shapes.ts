import {
  ALNUM,
  BASE64,
  BASE64URL,
  fake,
  LOWER_HEX,
  UPPER_ALNUM,
} from "../redaction-corpus/fake-credentials.js";
import { DIGITS, join, type ScannerShape, uuid } from "./scanner-shape.js";

const telegram = join(fake(DIGITS, 10), ":AA", fake(BASE64URL, 33));
const slackWebhook = join("T", fake(UPPER_ALNUM, 8), "/B", fake(UPPER_ALNUM, 8), "/", fake(ALNUM, 24));
const slackWorkflow = join("T", fake(UPPER_ALNUM, 8), "/A", fake(UPPER_ALNUM, 10), "/", fake(ALNUM, 24));
const slackTrigger = join("T", fake(UPPER_ALNUM, 8), "/", fake(DIGITS, 13), "/", fake(LOWER_HEX, 32));
const sidekiqUrlSecret = fake(LOWER_HEX, 8);
const pemBody = fake(BASE64, 70);
const teamsWebhook = join(
  uuid(LOWER_HEX),
  "@",
  uuid(LOWER_HEX),
  "/IncomingWebhook/",
  fake(LOWER_HEX, 32),
  "/",
  uuid(LOWER_HEX),
);

/** gitleaks' rules for secrets that are part of a URL, and for private key blocks. */
export const GITLEAKS_URL_AND_BLOCK_SHAPES: readonly ScannerShape[] = [
  {
    scanner: "gitleaks",
    rule: "microsoft-teams-webhook",
    text: `posting to https://acme.webhook.office.com/webhookb2/${teamsWebhook}`,
    secrets: [teamsWebhook],
  },
  {
    scanner: "gitleaks",
    rule: "sidekiq-sensitive-url",
    text: `fetching https://${fake(LOWER_HEX, 8)}:${sidekiqUrlSecret}@gems.contribsys.com/`,
    secrets: [sidekiqUrlSecret],
  },
  {
    scanner: "gitleaks",
    rule: "slack-webhook-url",
    text: `posting to https://hooks.slack.com/services/${slackWebhook}`,
    secrets: [slackWebhook],
  },
  {
    scanner: "gitleaks",
    rule: "slack-webhook-url (workflows)",
    text: `posting to https://hooks.slack.com/workflows/${slackWorkflow}`,
    secrets: [slackWorkflow],
  },
  {
    scanner: "gitleaks",
    rule: "slack-webhook-url (triggers)",
    text: `posting to https://hooks.slack.com/triggers/${slackTrigger}`,
    secrets: [slackTrigger],
  },
  {
    scanner: "gitleaks",
    rule: "telegram-bot-api-token (in a URL path)",
    text: `https://api.telegram.org/bot${telegram}/getMe`,
    secrets: [telegram.split(":")[1] as string],
  },
  {
    scanner: "gitleaks",
    rule: "private-key",
    text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemBody}\n-----END OPENSSH PRIVATE KEY-----`,
    secrets: [pemBody],
  },
];
