import {
  ALNUM,
  BASE64,
  BASE64URL,
  fake,
  fakeJwt,
  LETTERS,
  LOWER_HEX,
  UPPER_ALNUM,
} from "./fake-credentials.js";

import { bareToken, line, type SecretLine } from "./secret-line.js";

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
const pemInJson = fake(BASE64URL, 32);
const pemUnterminated = fake(BASE64URL, 32);

/** Secrets recognised by their own shape: cloud key ids, provider tokens, JWTs, private keys. */
export const TOKEN_SECRET_LINES: readonly SecretLine[] = [
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
    `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${pemInJson}\\n-----END PRIVATE KEY-----\\n"}`,
    [pemInJson as string],
  ),
  line("private key", `-----BEGIN OPENSSH PRIVATE KEY-----\n${pemUnterminated}`, [pemUnterminated as string]),
];
