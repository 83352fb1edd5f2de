import { describe, expect, it } from "vitest";
import { BOOTSTRAP_TICKET_VARIABLE, takeBootstrapTicket, ticketMissing } from "./bootstrap-ticket.js";

describe("the bootstrap ticket", () => {
  it("is read once and removed from the environment at once", () => {
    const env: NodeJS.ProcessEnv = { [BOOTSTRAP_TICKET_VARIABLE]: "bootstrap_x", PATH: "/bin" };
    expect(takeBootstrapTicket(env)).toBe("bootstrap_x");
    expect(env).toEqual({ PATH: "/bin" });
    expect(takeBootstrapTicket(env)).toBeNull();
  });

  it("is required by durable mode (ERR_RUNNER_DURABLE_TICKET_MISSING), and the error never carries a value", () => {
    const error = ticketMissing();
    expect(error.code).toBe("ERR_RUNNER_DURABLE_TICKET_MISSING");
    expect(error.message).toBe(
      "durable mode requires the bootstrap ticket in PAPERCLIP_RUNNER_BOOTSTRAP_TICKET",
    );
  });
});
