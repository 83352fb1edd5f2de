import { describe, expect, it } from "vitest";
import { redactKeyedValue } from "./redact-keyed-value.js";

describe("redactKeyedValue", () => {
  it.each([
    ["password", "hunter2", "[REDACTED]"],
    ["pin_password", "x", "[REDACTED]"],
    ["apiKey", "s3cr3tv4lue", "[REDACTED]"],
    ["Authorization", "Basic dXNlcjpwYXNz", "Basic [REDACTED]"],
    ["cOoKiE", "sid=abcdef123456", "[REDACTED]"],
    ["x-API-key", "XYZkey123456", "[REDACTED]"],
  ])("redacts the value of %s whole", (key, value, expected) => {
    expect(redactKeyedValue(key, value)).toBe(expected);
  });

  it.each([
    ["token", "expired"],
    ["password", "none"],
    ["tokens", "12"],
    ["max_tokens", "4096"],
    ["secret_name", "app-db-password"],
    ["note", "a plain sentence"],
  ])("keeps the value of %s when it holds no secret (%s)", (key, value) => {
    expect(redactKeyedValue(key, value)).toBe(value);
  });

  it("redacts a value without a telling key as free text", () => {
    expect(redactKeyedValue("hint", "password=hunter2")).toBe("password=[REDACTED]");
    expect(redactKeyedValue(undefined, "Bearer abcdefghijklmnop")).toBe("Bearer [REDACTED]");
  });
});
