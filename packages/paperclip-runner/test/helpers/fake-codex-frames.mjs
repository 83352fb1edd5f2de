// The fake app-server's "frames:" turn script: the turn text is `frames:` then a JSON list of the
// messages Codex sends during the turn, so a test states exactly what arrives (sub-agent threads,
// requests naming other threads or turns). In any string "$THREAD" becomes the opened thread's id
// and "$TURN" the running turn's. Each frame is `{notify, params}` (a notification), `{request,
// params}` (a server request, waited on, its answer logged as `frames_answer`), `{send: message}` (a
// message written as it is, not waited on: a request with a JSON-RPC id of the test's choosing, whose
// answer the log has among the received messages) or `{stop: true}`
// (the turn goes silent: no plain ending), or `{repeat: n, frame}` (the frame n times, "$N" in its strings
// becoming 0, 1, …). Without a stop the turn then ends as a plain one.

const fill = (value, ids) => {
  if (typeof value === "string")
    return value
      .replaceAll("$THREAD", ids.thread)
      .replaceAll("$TURN", ids.turn)
      .replaceAll("$N", String(ids.n ?? ""));
  if (Array.isArray(value)) return value.map((item) => fill(item, ids));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, ids)]));
  return value;
};

/** Plays the frames of `text`; true when the turn is to end as a plain one afterwards. */
export async function playFrames(text, ids, { notify, request, send, log }) {
  const frames = JSON.parse(text.slice("frames:".length)).flatMap((frame) =>
    frame.repeat === undefined
      ? [frame]
      : Array.from({ length: frame.repeat }, (_, n) => fill(frame.frame, { ...ids, n })),
  );
  for (const frame of fill(frames, ids)) {
    if (frame.stop === true) return false;
    if (frame.send !== undefined) send(frame.send);
    else if (frame.request !== undefined)
      log({ kind: "frames_answer", answer: await request(frame.request, frame.params) });
    else notify(frame.notify, frame.params);
  }
  return true;
}
