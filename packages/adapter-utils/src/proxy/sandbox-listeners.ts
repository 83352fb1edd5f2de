import { createServer, type Server, type Socket } from "node:net";
import { SandboxError } from "@paperclipai/errors";
import { type ConnectionId, connectionId } from "../handoff/handoff-wire.js";

function listenOn(server: Server, socketPath: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new SandboxError(
          "ERR_SANDBOX_PROXY_LISTEN",
          `Paperclip sandbox network proxy could not listen on ${socketPath}.`,
          { cause: error, details: { socketPath, code: error.code ?? "unknown" } },
        ),
      );
    };
    server.once("error", onError);
    server.listen(socketPath, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/**
 * Listens on `socketPath` for the sandbox's connections and, when `bridgeSocketPath` is
 * given (a courier serves the run), there for the native bridge's own, each named by an
 * id so a tunnel of theirs can be handed to the bridge. Both pass what they accept to
 * `accept`. When either cannot listen, both are closed and the coded error rethrown.
 */
export async function listenForSandbox(
  socketPath: string,
  bridgeSocketPath: string | null,
  accept: (socket: Socket, bridgeId?: ConnectionId) => void,
): Promise<Server[]> {
  const listener = createServer({ allowHalfOpen: true }, (socket) => accept(socket));
  let lastBridgeId = 0n;
  const bridgeListener = bridgeSocketPath
    ? createServer({ allowHalfOpen: true }, (socket) => {
        lastBridgeId += 1n;
        accept(socket, connectionId(lastBridgeId));
      })
    : null;
  const servers = bridgeListener ? [listener, bridgeListener] : [listener];
  try {
    await Promise.all([
      listenOn(listener, socketPath),
      bridgeListener && bridgeSocketPath ? listenOn(bridgeListener, bridgeSocketPath) : undefined,
    ]);
  } catch (error) {
    for (const server of servers) server.close();
    throw error;
  }
  for (const server of servers) server.on("error", () => {});
  return servers;
}
