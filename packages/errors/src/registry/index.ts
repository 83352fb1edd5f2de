export { explain, renderErrorEntry } from "../explain/explain.js";
export { renderErrorDocs } from "../explain/render-docs.js";
export type { ErrorEntryDefinition, ErrorFamily } from "./entry.js";
export { type ErrorEntry, errorRegistry, findErrorEntry, isErrorCode } from "./registry.js";
