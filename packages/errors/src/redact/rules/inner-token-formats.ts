import { isAlnum, isDigit, isLowerHexChar, isNameChar, isTokenChar } from "../char-classes.js";
import type { TokenFormat } from "./token-formats.js";
import { run } from "./token-shape.js";

const isAzureLeadChar = (code: number): boolean => isNameChar(code) || code === 126 || code === 46;
const isAzureChar = (code: number): boolean => isAzureLeadChar(code) || code === 45;
const isUrlSafeBase64OrPadding = (code: number): boolean => isTokenChar(code) || code === 61;

/**
 * Tokens whose fixed part stands inside them, after a run of their own characters: found by
 * that part, and read back from it to where the token starts (see TokenFormat.lead).
 */
export const INNER_TOKEN_FORMATS: readonly TokenFormat[] = [
  {
    provider: "Azure Entra client secret",
    prefixes: ["Q~"],
    lead: [run(isAzureLeadChar, 3), run(isDigit, 1)],
    body: [run(isAzureChar, 31, 34)],
  },
  {
    provider: "HashiCorp Terraform API token",
    prefixes: ["atlasv1."],
    lead: [run(isAlnum, 14), "."],
    body: [run(isUrlSafeBase64OrPadding, 60, 70)],
  },
  {
    // 32 hex digits, `-us` and the data centre's number.
    provider: "Mailchimp",
    prefixes: ["-us"],
    lead: [run(isLowerHexChar, 32)],
    body: [run(isDigit, 1, 2)],
  },
  {
    provider: "MaxMind license key",
    prefixes: ["_mmk"],
    lead: [run(isAlnum, 6), "_", run(isAlnum, 29)],
    body: [],
  },
];
