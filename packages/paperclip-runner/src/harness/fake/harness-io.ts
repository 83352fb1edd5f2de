import { appendFileSync } from "node:fs";
import type { HarnessCommand } from "../harness-message.js";
import { LineFramer } from "../line-framer.js";

/** The frame of one command line the built-in harness reads (upstream's fake harness reads 64 KiB). */
const MAX_COMMAND_BYTES = 1024 * 1024;

/**
 * The commands the runner forwards, read from stdin line by line. A command is
 * offered to `route` first (the script's `on` handlers); otherwise it waits in
 * arrival order for a `take` that wants it.
 */
export class CommandInbox {
  private readonly queue: HarnessCommand[] = [];
  private waiter: {
    readonly wants: (command: HarnessCommand) => boolean;
    readonly resolve: (command: HarnessCommand) => void;
  } | null = null;

  constructor(
    private readonly route: (command: HarnessCommand) => boolean,
    commandLog: string | null,
    onClose: () => void,
  ) {
    const framer = new LineFramer(
      {
        onLine: (line) => {
          let command: HarnessCommand;
          try {
            command = JSON.parse(line) as HarnessCommand;
          } catch {
            return;
          }
          if (commandLog !== null) {
            const entry = {
              commandId: command.commandId,
              command: command.command,
              resume: command.resume === true,
            };
            appendFileSync(commandLog, `${JSON.stringify(entry)}\n`);
          }
          this.deliver(command);
        },
        onOversized: () => undefined,
      },
      MAX_COMMAND_BYTES,
    );
    process.stdin.on("data", (chunk: Buffer) => framer.push(chunk));
    process.stdin.once("end", () => {
      framer.end();
      onClose();
    });
  }

  /**
   * The next command `wants` accepts. With `discardOthers` (upstream's rule) the
   * commands queued before it that it does not want are dropped.
   */
  take(wants: (command: HarnessCommand) => boolean, discardOthers = false): Promise<HarnessCommand> {
    const index = this.queue.findIndex(wants);
    if (index !== -1) {
      const taken = discardOthers ? this.queue.splice(0, index + 1) : this.queue.splice(index, 1);
      return Promise.resolve(taken.at(-1) as HarnessCommand);
    }
    if (discardOthers) this.queue.length = 0;
    return new Promise((resolve) => {
      this.waiter = { wants, resolve };
    });
  }

  private deliver(command: HarnessCommand): void {
    if (this.route(command)) return;
    const waiter = this.waiter;
    if (waiter?.wants(command)) {
      this.waiter = null;
      waiter.resolve(command);
      return;
    }
    this.queue.push(command);
  }
}

/** One protocol message on stdout; resolves once the pipe took it. */
export function send(message: Record<string, unknown>): Promise<void> {
  return write(process.stdout, `${JSON.stringify(message)}\n`);
}

export function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}
