#!/usr/bin/env node
// A scripted stand-in for the server's opencode-app-server-proxy.cjs (the JSON-RPC facade
// runnerd speaks to OpenCode), for the differential tests: run as the launch profile's proxy
// script, so upstream's runner and ours take it as OpenCode. Self-contained (upstream's runner
// runs it from a descriptor, where relative imports do not resolve). It answers initialize,
// thread/start|resume|read, turn/start|interrupt as the proxy does, and plays the turn the
// input text scripts: "plain", or "script:" and a JSON array of steps, each
// `{"notify": method, "params": {...}}` or `{"request": method, "params": {...}}` (the answer is
// logged, then the next step runs; with `"wait": false` the next step runs at once), `$thread`
// and `$turn` in any string replaced by the ids, a string `$fill:<n>` by n letters `x` (large
// questions in a short script); a turn ends with an agent message and
// `turn/completed` unless a step is `{"end": false}`.
// Every message it receives, and each answer to its requests, go to
// $PAPERCLIP_OPENCODE_RUNTIME_DIR/log.jsonl.
const { appendFileSync, mkdirSync } = require("node:fs");
const { join } = require("node:path");
const { createInterface } = require("node:readline");

const home = process.env.PAPERCLIP_OPENCODE_RUNTIME_DIR;
mkdirSync(home, { recursive: true });
const log = (record) => appendFileSync(join(home, "log.jsonl"), `${JSON.stringify(record)}\n`);
log({ kind: "start", pid: process.pid, args: process.argv.slice(2) });

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const threadId = "ses_fake_proxy_1";
let turns = 0;
let activeTurn = null;
let nextRequestId = 1;
const waiting = new Map();

function request(method, params) {
  const id = `opencode-${nextRequestId++}`;
  send({ id, method, params });
  return new Promise((resolve) => waiting.set(id, resolve));
}

function substitute(value, turnId) {
  const fill = typeof value === "string" ? /^\$fill:(\d+)$/.exec(value) : null;
  if (fill !== null) return "x".repeat(Number(fill[1]));
  if (typeof value === "string") return value.replaceAll("$thread", threadId).replaceAll("$turn", turnId);
  if (Array.isArray(value)) return value.map((item) => substitute(item, turnId));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, turnId)]));
  return value;
}

function complete(turnId, text) {
  const itemId = `msg-${turnId}`;
  const item = { type: "agentMessage", id: itemId, text };
  send({ method: "item/started", params: { threadId, turnId, item: { ...item, text: "" } } });
  send({ method: "item/agentMessage/delta", params: { threadId, turnId, itemId, delta: text } });
  send({ method: "item/completed", params: { threadId, turnId, item } });
  if (activeTurn === turnId) activeTurn = null;
  send({ method: "turn/completed", params: { threadId, turnId, turn: { id: turnId, status: "completed" } } });
}

async function playTurn(turnId, text) {
  send({ method: "turn/started", params: { threadId, turnId, turn: { id: turnId, status: "inProgress" } } });
  const steps = text.startsWith("script:") ? JSON.parse(text.slice("script:".length)) : [];
  let end = true;
  for (const step of steps) {
    if (step.end === false) end = false;
    else if (step.notify !== undefined)
      send({ method: step.notify, params: substitute(step.params, turnId) });
    else if (step.request !== undefined) {
      const answered = request(step.request, substitute(step.params, turnId)).then((answer) =>
        log({ kind: "answer", method: step.request, answer }),
      );
      if (step.wait !== false) await answered;
    }
  }
  if (end) complete(turnId, `answer to ${text.slice(0, 40)}`);
}

const handlers = {
  initialize: () => ({
    user: { sessionId: "opencode" },
    serverInfo: { name: "opencode", version: "1.18.29" },
  }),
  "thread/start": (params) => ({
    thread: { id: threadId, sessionId: threadId, cwd: params.cwd },
    model: params.model,
  }),
  "thread/resume": (params) => ({
    thread: { id: params.threadId, sessionId: params.threadId },
    model: params.model,
  }),
  "thread/read": () => ({
    thread: { id: threadId, turns: activeTurn === null ? [] : [{ id: activeTurn, status: "inProgress" }] },
  }),
  "turn/start": (params) => {
    turns += 1;
    const turnId = `turn-${turns}`;
    activeTurn = turnId;
    setImmediate(() => void playTurn(turnId, params.input?.[0]?.text ?? ""));
    return { turn: { id: turnId, status: "inProgress" } };
  },
  "turn/interrupt": (params) => {
    setImmediate(() => {
      if (activeTurn === params.turnId) activeTurn = null;
      send({
        method: "turn/completed",
        params: { threadId, turnId: params.turnId, turn: { id: params.turnId, status: "interrupted" } },
      });
    });
    return true;
  },
};

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  log({ kind: "received", message });
  if (message.method === undefined) {
    // An answer to one of its requests: the result, or the error (as the proxy rejects it).
    waiting.get(message.id)?.(
      message.error === undefined ? { result: message.result } : { error: message.error },
    );
    waiting.delete(message.id);
    return;
  }
  if (message.id === undefined) return;
  const handler = handlers[message.method];
  if (handler === undefined) {
    send({
      id: message.id,
      error: { code: -32000, message: `Unsupported OpenCode proxy method ${message.method}` },
    });
    return;
  }
  send({ id: message.id, result: handler(message.params ?? {}) });
});
process.stdin.on("end", () => process.exit(0));
