// The server's transport keeps its durable control plane private and sends `runner.drain` and
// `runner.suspend` only inside its close. To send them (and other raw PRP commands) on their own,
// this tap remembers the control plane the transport last queued a command on: the same module
// instance the transport imports, its `queueCommand` wrapped. Written for this repository.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** `vendor`: the server's vendored runner code. Returns a sender of raw commands on the current control plane. */
export async function tapControlPlane(vendor) {
  const { DurablePrpControlPlane } = await import(
    pathToFileURL(join(vendor, "control-plane/durable-prp-control-plane.js")).href
  );
  let current = null;
  const queueCommand = DurablePrpControlPlane.prototype.queueCommand;
  DurablePrpControlPlane.prototype.queueCommand = function (...args) {
    current = this;
    return queueCommand.apply(this, args);
  };
  let sequence = 0;
  /**
   * Queues `type` on the transport's control plane (as the transport queues its own commands) and
   * waits until the runner answers it or `timeoutMs` passes: `{status, result}` (`pending` if unanswered).
   */
  async function send(type, payload = {}, timeoutMs = 30_000) {
    if (current === null) throw new Error("the transport has queued no command yet");
    const core = current;
    sequence += 1;
    const commandId = `command_oracle_${type.replaceAll(".", "_")}_${sequence}`;
    core.queueCommand(type, payload, commandId, true);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const command = core.getCommand(commandId);
      if (command.status !== "pending" || Date.now() > deadline) {
        return { status: command.status, result: command.result?.result ?? command.result ?? null };
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return { send, committedCount: () => current?.store.state.committedEvents.length ?? 0 };
}
