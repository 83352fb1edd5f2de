/** The classes of the issue: every one has lines in the corpus. */
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

export const line = (
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
export const bareToken = (token: string, before = "using", after = "for the deploy"): SecretLine =>
  line("provider token", `${before} ${token} ${after}`, [token], [before, after]);
