import { createRequire } from "node:module";
import { PaperclipError, redactSecrets, SandboxError, truncateUtf8 } from "@paperclipai/errors";
import { errorRegistry } from "@paperclipai/errors/registry";
import type { TourContext } from "../tour-context.js";

export async function errorsSection(context: TourContext): Promise<void> {
  await context.step("the registry documents every code", async () => {
    const families = new Map<string, number>();
    for (const entry of errorRegistry) families.set(entry.family, (families.get(entry.family) ?? 0) + 1);
    for (const [family, count] of families) context.log(`${family}: ${count} codes`);
    return `${errorRegistry.length} codes, each with meaning, triggers, solutions and prevention`;
  });

  await context.step("an error crosses the ESM and the CJS copy of the package", async () => {
    const cjs = createRequire(import.meta.url)("@paperclipai/errors") as typeof import("@paperclipai/errors");
    const error = new cjs.SandboxError(
      "ERR_SANDBOX_PROXY_SOCKET_DIR",
      "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    );
    const recognised =
      error instanceof SandboxError && PaperclipError.is(error, "ERR_SANDBOX_PROXY_SOCKET_DIR");
    if (!recognised) throw new Error("the ESM copy did not recognise the CJS error");
    context.log(error.toString());
    return "instanceof and PaperclipError.is() agree across copies";
  });

  await context.step("secrets are redacted before a message is bounded", async () => {
    const message = `OPENAI_API_KEY=raw-secret Authorization: Bearer another-secret ${"x".repeat(256 * 1024)}`;
    const { text } = truncateUtf8(redactSecrets(message), 65_536);
    context.log(`${text.slice(0, 60)}…`);
    if (text.includes("raw-secret") || text.includes("another-secret")) throw new Error("a secret survived");
    return `256 KiB message → ${Buffer.byteLength(text)} bytes, no secret left`;
  });
}
