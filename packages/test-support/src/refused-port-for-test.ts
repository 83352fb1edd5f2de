import { onTestFinished } from "vitest";
import { refusedPort } from "./ports.js";

/** A `refusedPort()` released when the current test finishes, passed or failed: its port number. */
export async function refusedPortForTest(): Promise<number> {
  const held = await refusedPort();
  onTestFinished(() => held.close());
  return held.port;
}
