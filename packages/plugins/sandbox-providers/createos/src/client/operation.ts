/**
 * The fixed labels that name a call in `CreateOS request failed (HTTP ${status}) during ${operation}.`;
 * a label never carries a URL, an id or a body.
 */
export type CreateosOperation =
  | "file transfer"
  | "stdin close"
  | "output connection"
  | "process creation"
  | "process cleanup"
  | "workspace command"
  | "sandbox lifecycle";
