import { describe, expect, it } from "vitest";
import { logsOf, startTurn } from "./helpers/local-steps.js";
import { Controller, IDS, terminalOf } from "./local-controller.js";

// Base64 lines of a key body: no redaction rule knows them, only the block around them can.
const BODY = [
  "lQOYBGNzZXQBCADQkqz0Ph3VQ9q1sVqz8Y2JzH4m7fW4m3eX1d9yM4nCqj2Tb0aQ",
  "Zm9vYmFyYmF6cXV4c2VjcmV0a2V5bWF0ZXJpYWxoZXJlMTIzNDU2Nzg5MGFiY2Rl",
];

/** A harness that says ready, prints `block` on its stderr, then fails its turn by exiting. */
function keyPrintingHarness(block: readonly string[], flags: readonly string[] = []): string[] {
  const script = `echo '{"type":"ready"}'; printf '%s\\n' "$@" >&2; read line; read line; exit 3`;
  return [
    ...IDS,
    ...flags,
    "--harness-command",
    "/bin/sh",
    ...["-c", script, "sh", ...block].flatMap((arg) => ["--harness-arg", arg]),
  ];
}

describe("a private key on the harness's stderr, line by line", { timeout: 60_000 }, () => {
  for (const kind of ["PGP PRIVATE KEY BLOCK", "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY"]) {
    it(`keeps no line of a ${kind} out of [REDACTED] in harness.exited`, async () => {
      const controller = new Controller(
        keyPrintingHarness([`-----BEGIN ${kind}-----`, "", ...BODY, "=Ab3d", `-----END ${kind}-----`]),
      );
      startTurn(controller);
      await terminalOf(controller);
      const { lines } = logsOf(controller);
      expect(lines).toHaveLength(6);
      for (const line of lines) expect(line).toMatch(/^(stderr: )?\[REDACTED\]$/);
      const stream = JSON.stringify(controller.messages);
      for (const bodyLine of BODY) expect(stream).not.toContain(bodyLine);
    });
  }
});

describe("a private key whose header ends a stderr line too long to keep", { timeout: 60_000 }, () => {
  it("redacts the body lines after it, and says the long line was dropped", async () => {
    const header = "-----BEGIN PGP PRIVATE KEY BLOCK-----";
    const controller = new Controller(
      keyPrintingHarness(
        [`${"x".repeat(3000)} ${header}`, "", ...BODY, "=Ab3d", "-----END PGP PRIVATE KEY BLOCK-----"],
        ["--harness-max-line-bytes", "1024"],
      ),
    );
    startTurn(controller);
    await terminalOf(controller);
    const { lines } = logsOf(controller);
    expect(lines[0]).toMatch(
      /^stderr: \[a line of 3038 bytes exceeded the 1024-byte frame and was dropped\]$/,
    );
    expect(lines.slice(1)).toHaveLength(5);
    for (const line of lines.slice(1)) expect(line).toMatch(/^(stderr: )?\[REDACTED\]$/);
    const stream = JSON.stringify(controller.messages);
    for (const bodyLine of BODY) expect(stream).not.toContain(bodyLine);
  });
});
