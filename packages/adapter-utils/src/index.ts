export { SandboxError } from "@paperclipai/errors";
export { VERSION } from "./version.js";
