import { CONTEXT_SECRET_LINES } from "./context-secret-lines.js";
import type { SecretLine } from "./secret-line.js";
import { TOKEN_SECRET_LINES } from "./token-secret-lines.js";

export type { SecretClass, SecretLine } from "./secret-line.js";

/** Every line of the corpus that holds a secret. */
export const SECRET_LINES: readonly SecretLine[] = [...TOKEN_SECRET_LINES, ...CONTEXT_SECRET_LINES];
