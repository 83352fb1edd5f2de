export { RunnerError } from "@paperclipai/errors";
export { VERSION } from "./version.js";
