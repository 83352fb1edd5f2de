import type { EmulatorRoute } from "./types.js";

/** Every named route, for validating fault plans. */
export const EMULATOR_ROUTES: readonly EmulatorRoute[] = [
  "sandbox.create",
  "sandbox.get",
  "sandbox.pause",
  "sandbox.resume",
  "sandbox.delete",
  "sandbox.exec",
  "files.put",
  "files.get",
  "process.create",
  "process.stdinClose",
  "process.connect",
  "process.wait",
  "process.kill",
  "unknown",
];

/** CreateOS resource ids, as the plugin checks them. */
export const RESOURCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

export interface MatchedRoute {
  readonly route: EmulatorRoute;
  readonly sandboxId?: string;
  readonly processId?: string;
}

const SEGMENT = "([A-Za-z0-9_-]{1,200})";
const TABLE: readonly { method: string; pattern: RegExp; route: EmulatorRoute }[] = [
  { method: "POST", pattern: /^\/v1\/sandboxes$/, route: "sandbox.create" },
  { method: "GET", pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}$`), route: "sandbox.get" },
  { method: "DELETE", pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}$`), route: "sandbox.delete" },
  { method: "POST", pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/pause$`), route: "sandbox.pause" },
  { method: "POST", pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/resume$`), route: "sandbox.resume" },
  { method: "POST", pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/exec$`), route: "sandbox.exec" },
  { method: "PUT", pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/files$`), route: "files.put" },
  { method: "GET", pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/files$`), route: "files.get" },
  { method: "POST", pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/processes$`), route: "process.create" },
  {
    method: "POST",
    pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/processes/${SEGMENT}/stdin/close$`),
    route: "process.stdinClose",
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/processes/${SEGMENT}/connect$`),
    route: "process.connect",
  },
  {
    method: "GET",
    pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/processes/${SEGMENT}/wait$`),
    route: "process.wait",
  },
  {
    method: "DELETE",
    pattern: new RegExp(`^/v1/sandboxes/${SEGMENT}/processes/${SEGMENT}$`),
    route: "process.kill",
  },
];

/** Maps a method and a path (without query) to a named route and its ids. */
export function matchRoute(method: string, path: string): MatchedRoute {
  for (const entry of TABLE) {
    if (entry.method !== method) continue;
    const match = entry.pattern.exec(path);
    if (!match) continue;
    const [, sandboxId, processId] = match;
    return {
      route: entry.route,
      ...(sandboxId === undefined ? {} : { sandboxId }),
      ...(processId === undefined ? {} : { processId }),
    };
  }
  return { route: "unknown" };
}
