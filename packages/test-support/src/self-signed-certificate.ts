import { execFileSync } from "node:child_process";
import { join } from "node:path";

/** A private key and its certificate, PEM files. */
export interface CertificateFiles {
  readonly key: string;
  readonly cert: string;
}

/**
 * Writes `key.pem` and `cert.pem` into `dir`: a P-256 certificate for `localhost` and
 * `127.0.0.1`, valid one day, self-signed, so the certificate is also the CA bundle a client
 * trusts (`openssl` on PATH).
 */
export function writeSelfSignedCertificate(dir: string): CertificateFiles {
  const key = join(dir, "key.pem");
  const cert = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  return { key, cert };
}
