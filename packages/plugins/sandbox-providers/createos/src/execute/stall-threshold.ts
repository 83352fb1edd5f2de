/**
 * How long a connection may stay silent before it counts as stalled. The configured
 * timeout is the ceiling; once the server's heartbeat cadence has been seen (the longest
 * gap between two heartbeats with nothing in between), a few of its intervals are enough,
 * so a stall behind a fast-beating server is caught early. Never below `floorMs`.
 */
export function stallThreshold(configuredMs: number, heartbeatGapMs: number, floorMs = 1_000): number {
  if (heartbeatGapMs <= 0) return configuredMs;
  return Math.min(configuredMs, Math.max(floorMs, 4 * heartbeatGapMs));
}

/**
 * How long a connection may go without a complete frame while bytes still arrive: progress is a
 * frame, not a byte, so a server that trickles a frame it never finishes is cut. Four stall
 * windows, so a large frame on a slow link still arrives whole (8 MiB in 60 s at the default).
 */
export function frameAssemblyLimit(configuredMs: number): number {
  return 4 * configuredMs;
}

/** Learns the heartbeat cadence from the frames of a connection. */
export class HeartbeatCadence {
  #gapMs = 0;
  #lastHeartbeatAt: number | undefined;

  /** The longest gap seen between two consecutive heartbeats. */
  get gapMs(): number {
    return this.#gapMs;
  }

  onHeartbeat(now: number): void {
    if (this.#lastHeartbeatAt !== undefined) this.#gapMs = Math.max(this.#gapMs, now - this.#lastHeartbeatAt);
    this.#lastHeartbeatAt = now;
  }

  /** Data (or a new connection) breaks the idle run: the next gap starts at the next heartbeat. */
  interrupt(): void {
    this.#lastHeartbeatAt = undefined;
  }
}
