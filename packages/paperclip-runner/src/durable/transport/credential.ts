import { domainDigest } from "./domain-digest.js";

/**
 * What a secret (a bootstrap ticket or a connection lease token) becomes on the
 * wire: an id the server looks the credential up by, and the key both sides prove
 * knowledge of. The secret itself is never sent.
 */
export interface CredentialMaterial {
  readonly credentialId: string;
  readonly authKey: Buffer;
}

export function credentialMaterial(secret: string): CredentialMaterial {
  const bytes = Buffer.from(secret, "utf8");
  return {
    credentialId: `sha256:${domainDigest("paperclip-runner-credential-id-v1", [bytes]).toString("hex")}`,
    authKey: domainDigest("paperclip-runner-auth-key-v1", [bytes]),
  };
}
