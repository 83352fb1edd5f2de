/**
 * Helpers for the tests of code that throws Paperclip errors: `@paperclipai/errors/testing`.
 * Framework-free, so they work under vitest, jest and `node:test` alike.
 */
export { caught, caughtSync } from "./caught-code.js";
