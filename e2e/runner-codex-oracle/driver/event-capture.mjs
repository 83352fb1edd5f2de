// The notifications the server's transport delivers, captured across every transport of one
// scenario (the first and any resumed one), and a wait on them. Written for this repository.

/** `capture(transport)` starts reading a transport's notifications into `notifications`. */
export function createEventCapture(print) {
  const notifications = [];
  const waiters = [];
  function capture(transport) {
    void (async () => {
      try {
        for await (const notification of transport.notifications()) {
          notifications.push(notification);
          for (const waiter of waiters.splice(0)) waiter();
        }
      } catch (error) {
        print({ type: "notifications_closed", error: String(error?.message ?? error).slice(0, 300) });
      }
    })();
  }
  /** Resolves once `predicate` holds, checked at each notification and every 25 ms. */
  const until = async (predicate, what, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 25);
      });
    }
  };
  const turnCompleted = (turnId) =>
    notifications.find(
      (n) => n.method === "turn/completed" && (n.params?.turn?.id ?? n.params?.turnId) === turnId,
    );
  return { notifications, capture, until, turnCompleted };
}
