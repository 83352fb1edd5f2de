import { SandboxError } from "@paperclipai/errors";

/** Linux `sun_path` is 108 bytes including the NUL; bind() silently truncates a longer path. */
export const UNIX_SOCKET_PATH_MAX_BYTES = 107;

export function assertUnixSocketPathLength(socketPath: string): void {
  const bytes = Buffer.byteLength(socketPath);
  if (bytes > UNIX_SOCKET_PATH_MAX_BYTES) {
    throw new SandboxError(
      "ERR_SANDBOX_SOCKET_PATH_TOO_LONG",
      `Paperclip sandbox proxy socket path is ${bytes} bytes, exceeding the Linux limit of ${UNIX_SOCKET_PATH_MAX_BYTES}: ${socketPath}`,
      { details: { socketPath, bytes, limit: UNIX_SOCKET_PATH_MAX_BYTES } },
    );
  }
}
