export { SandboxError } from "@paperclipai/errors";
export * from "./local-process-sandbox.js";
export { VERSION } from "./version.js";
