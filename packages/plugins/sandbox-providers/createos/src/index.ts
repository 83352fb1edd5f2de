export { CreateosError } from "@paperclipai/errors";
export { VERSION } from "./version.js";
