/** What the bridge is started with: `node bridge.cjs <socket> <program> [args…]`. */
export interface BridgeArgv {
  /** The host proxy's Unix socket, as the sandbox sees it. */
  readonly socketPath: string;
  readonly executable: string;
  readonly args: readonly string[];
}

/** The bridge's own arguments (after `node` and the script), or `null` when the socket or program is missing. */
export function parseBridgeArgv(argv: readonly string[]): BridgeArgv | null {
  const [socketPath, executable, ...args] = argv;
  if (!socketPath || !executable) return null;
  return { socketPath, executable, args };
}
