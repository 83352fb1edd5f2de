#!/usr/bin/env node
// A scripted stand-in for `codex app-server` (the JSON-RPC over stdio that upstream's
// runner speaks), as upstream tests with its fake-codex-app-server: a real process that
// answers initialize, thread/start|resume|read, thread/goal/get|set|clear (the goal kept with the thread,
// each change also notified, as Codex does), thread/turns/list, turn/start|steer|interrupt,
// and plays a turn chosen by the input text. Threads live in $CODEX_HOME, so a fake
// started by a restarted runner resumes the thread a killed one opened (and, like Codex,
// replays the last token usage snapshot, naming its turn, on resume). Every message it
// receives and its environment's names go to $CODEX_HOME/log.jsonl.
//
// Turn scripts (the input text): "plain" (the default), "tool:<name>" (a dynamic tool call;
// "stall-after-tool:<name>": then silent once it is answered, as a model that stalls),
// "ask" (asks the user two questions, item/tool/requestUserInput, and says the answers; "ask-closed": the
// option question takes no other answer),
// "goal-progress" (the thread's goal gains used tokens during the turn: thread/goal/updated naming it),
// "hang" (started, then silent until interrupted), "no-answer" (turn/start is never answered), "foreign-thread", "foreign-turn",
// "flood", "oversized", "non-json", "exit" (the fake exits mid-turn), "complete-exit" (a plain turn, the
// fake exiting right after writing its turn/completed), "unknown-request" (a server request this runner
// does not serve, then a plain turn), "deep-frame" (an item nested 50 000 levels deep, then a plain turn),
// "deaf" (started, then it answers no request), "frames:<json>" (the messages listed, fake-codex-frames.mjs).
// Start modes (argument `--fake-mode MODE`): "numeric-ids" (its requests' JSON-RPC ids are numbers,
// as real Codex's), "exit-before-initialize", "never-answer", "non-json-initialize",
// "exit-after-resume" (exits just after answering each thread/resume), "fail-resume" (refuses every thread/resume),
// "fail-first-resume" (the first thread/resume any fake of this Codex home is sent is refused, the next answered),
// "late-resume-usage" (replays a resumed thread's usage snapshot only after answering the next turn/start),
// "outlive-runner" (does not exit when its stdin ends, its runner gone),
// and those of fake-codex-hostile-start.mjs (hostile answers to initialize and thread/start).
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { playFrames } from "./fake-codex-frames.mjs";
import { hostileStart } from "./fake-codex-hostile-start.mjs";

const home = process.env.CODEX_HOME;
mkdirSync(join(home, "threads"), { recursive: true });
const log = (record) => appendFileSync(join(home, "log.jsonl"), `${JSON.stringify(record)}\n`);
log({ kind: "start", pid: process.pid, env: Object.keys(process.env).sort(), args: process.argv.slice(2) });

const modeAt = process.argv.indexOf("--fake-mode");
const mode = modeAt === -1 ? "" : process.argv[modeAt + 1];
if (mode === "exit-before-initialize") process.exit(3);

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const notify = (method, params) => send({ method, params });
const threadPath = (id) => join(home, "threads", `${id}.json`);
const loadThread = (id) => JSON.parse(readFileSync(threadPath(id), "utf8"));
// Renamed into place: a runner's suspend may kill the fake while it saves (a thread file cut short
// would fail the next fake's thread/resume).
const saveThread = (thread) => {
  const partial = `${threadPath(thread.id)}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(thread));
  renameSync(partial, threadPath(thread.id));
};

let thread = null;
let activeTurn = null;
/** "late-resume-usage": the replay of the resumed thread's usage snapshot, held for the next turn/start. */
let lateResumeUsage = null;
let nextRequestId = 1;
let deaf = false;
const waiting = new Map();

function request(method, params) {
  // Real Codex numbers its server requests; the fake names them unless told otherwise.
  const id = mode === "numeric-ids" ? nextRequestId++ : `srv-${nextRequestId++}`;
  send({ id, method, params });
  return new Promise((resolve) => waiting.set(id, resolve));
}

function usage(turnId) {
  return {
    threadId: thread.id,
    turnId,
    tokenUsage: {
      total: { inputTokens: 120, cachedInputTokens: 20, outputTokens: 30, totalTokens: 150 },
      last: { inputTokens: 120, cachedInputTokens: 20, outputTokens: 30, totalTokens: 150 },
    },
  };
}

function finishTurn(turnId, status) {
  const turn = thread.turns.find((candidate) => candidate.id === turnId);
  if (turn !== undefined) turn.status = status;
  thread.lastUsageTurn = turnId;
  saveThread(thread);
  if (activeTurn === turnId) activeTurn = null;
  notify("turn/completed", { threadId: thread.id, turn: { id: turnId, status } });
}

async function agentMessage(turnId, text) {
  const itemId = `msg-${turnId}`;
  notify("item/started", {
    threadId: thread.id,
    turnId,
    item: { type: "agentMessage", id: itemId, text: "" },
  });
  notify("item/agentMessage/delta", { threadId: thread.id, turnId, itemId, delta: text });
  notify("item/completed", { threadId: thread.id, turnId, item: { type: "agentMessage", id: itemId, text } });
}

async function playTurn(turnId, text) {
  notify("turn/started", { threadId: thread.id, turn: { id: turnId, status: "inProgress" } });
  if (text === "hang") return;
  if (text === "foreign-thread") {
    notify("item/started", {
      threadId: "thread-somebody-else",
      turnId,
      item: { type: "agentMessage", id: "x" },
    });
    return;
  }
  if (text === "foreign-turn") {
    notify("item/started", {
      threadId: thread.id,
      turnId: "turn-elsewhere",
      item: { type: "agentMessage", id: "x" },
    });
    return;
  }
  if (text === "flood") {
    for (let index = 0; index < 20000; index += 1) {
      notify("item/agentMessage/delta", { threadId: thread.id, turnId, itemId: "flood", delta: "x" });
    }
    return;
  }
  if (text === "oversized") {
    process.stdout.write(
      `${JSON.stringify({ method: "warning", params: { message: "x".repeat(5 * 1024 * 1024) } })}\n`,
    );
    return;
  }
  if (text === "non-json") {
    process.stdout.write("this is not json\n");
    return;
  }
  if (text === "exit") process.exit(7);
  if (
    text.startsWith("frames:") &&
    !(await playFrames(text, { thread: thread.id, turn: turnId }, { notify, request, send, log }))
  )
    return;
  if (text === "deaf") {
    // Alive, but it answers nothing from here on.
    deaf = true;
    return;
  }
  if (text === "unknown-request") {
    // A server request this runner does not serve, as a newer Codex might send.
    const answer = await request("item/fileChange/requestApproval", {
      threadId: thread.id,
      turnId,
      itemId: "fc",
    });
    log({ kind: "unknown_request_answer", answer });
  }
  if (text === "deep-frame") {
    // An item nested far deeper than upstream's parser takes (the turn then goes on as a plain one).
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    process.stdout.write(
      `{"method":"item/completed","params":{"threadId":"${thread.id}","turnId":"${turnId}","item":{"type":"dynamicToolCall","id":"d","arguments":${deep}}}}\n`,
    );
  }
  if (text === "goal-progress" && thread.goal) {
    thread.goal = { ...thread.goal, tokensUsed: thread.goal.tokensUsed + 150, timeUsedSeconds: 2 };
    saveThread(thread);
    notify("thread/goal/updated", { threadId: thread.id, turnId, goal: thread.goal });
  }
  const stallAfterTool = text.startsWith("stall-after-tool:");
  if (text.startsWith("tool:") || stallAfterTool) {
    const tool = text.slice(text.indexOf(":") + 1);
    const callId = `call-${turnId}`;
    notify("item/started", {
      threadId: thread.id,
      turnId,
      item: { type: "dynamicToolCall", id: callId, tool },
    });
    const answer = await request("item/tool/call", {
      threadId: thread.id,
      turnId,
      callId,
      tool,
      arguments: { body: "hello from the model", token: "sk_live_abcdefghijklmnop" },
    });
    log({ kind: "tool_answer", answer });
    // The model stalls on the call's answer: the turn goes on with nothing more (no usage kept).
    if (stallAfterTool) return;
    notify("item/completed", {
      threadId: thread.id,
      turnId,
      item: { type: "dynamicToolCall", id: callId, tool, status: "completed" },
    });
    await agentMessage(turnId, `tool said ${answer.contentItems?.[0]?.text ?? ""}`);
  } else if (text === "ask" || text === "ask-closed") {
    const answer = await request("item/tool/requestUserInput", {
      threadId: thread.id,
      turnId,
      itemId: `ask-${turnId}`,
      questions: [
        {
          id: "color",
          header: "Colour",
          question: "Which colour?",
          options: [{ label: "red", description: "warm" }, { label: "blue" }],
          isOther: text === "ask",
          isSecret: false,
        },
        { id: "why", header: "Why", question: "Why that one?", isOther: false, isSecret: false },
      ],
    });
    log({ kind: "input_answer", answer });
    await agentMessage(turnId, `you said ${JSON.stringify(answer)}`);
  } else if (text === "complete-exit") {
    // Long enough that the end of it is still unread in the pipe when the fake has exited.
    await agentMessage(turnId, "x".repeat(256 * 1024));
  } else {
    await agentMessage(turnId, `answer to ${text}`);
  }
  notify("thread/tokenUsage/updated", usage(turnId));
  finishTurn(turnId, "completed");
  // Exits once the kernel took its last line (a plain exit could drop what Node still buffers),
  // while the runner has yet to read it.
  if (text === "complete-exit") process.stdout.write("", () => process.exit(0));
}

const handlers = {
  initialize: () => {
    if (mode === "never-answer") return undefined;
    if (mode === "non-json-initialize") {
      process.stdout.write("{not json\n");
      return undefined;
    }
    return { userAgent: "fake-codex/0.0.0", codexHome: home, platformFamily: "unix", platformOs: "linux" };
  },
  "thread/start": (params) => {
    thread = {
      id: `thread-${process.pid}-${Date.now()}`,
      sessionId: "account-session-1",
      turns: [],
      cwd: params.cwd,
    };
    saveThread(thread);
    notify("thread/started", { thread: { id: thread.id } });
    return { thread: { id: thread.id, sessionId: thread.sessionId }, model: params.model };
  },
  "thread/resume": (params) => {
    if (mode === "fail-resume") return { error: { code: -32000, message: "resume refused" } };
    const refusedOnce = join(home, "resume-refused");
    if (mode === "fail-first-resume" && !existsSync(refusedOnce)) {
      writeFileSync(refusedOnce, "");
      return { error: { code: -32000, message: "resume refused" } };
    }
    if (!existsSync(threadPath(params.threadId)))
      return { error: { code: -32000, message: "no such thread" } };
    thread = loadThread(params.threadId);
    // The previous provider process is gone: a turn it was running did not survive it.
    for (const turn of thread.turns) if (turn.status === "inProgress") turn.status = "interrupted";
    saveThread(thread);
    // "late-resume-usage": the replayed snapshot comes only once the next turn was asked for (as
    // Codex's may come some hundreds of milliseconds after the resume, behind the next turn/start).
    if (thread.lastUsageTurn !== undefined) {
      const replay = () => notify("thread/tokenUsage/updated", usage(thread.lastUsageTurn));
      if (mode === "late-resume-usage") lateResumeUsage = replay;
      else replay();
    }
    // A provider that dies again as soon as it has resumed (the runner must not restart it forever).
    if (mode === "exit-after-resume") setTimeout(() => process.exit(9), 50);
    return { thread: { id: thread.id, sessionId: thread.sessionId } };
  },
  "thread/goal/get": () => ({ goal: thread.goal ?? null }),
  "thread/goal/set": (params) => {
    const now = 1_796_000_000;
    thread.goal = {
      threadId: thread.id,
      objective: params.objective ?? thread.goal?.objective,
      status: params.status ?? "active",
      tokenBudget: params.tokenBudget ?? thread.goal?.tokenBudget ?? null,
      tokensUsed: thread.goal?.tokensUsed ?? 0,
      timeUsedSeconds: thread.goal?.timeUsedSeconds ?? 0,
      createdAt: thread.goal?.createdAt ?? now,
      updatedAt: now,
    };
    saveThread(thread);
    setImmediate(() =>
      notify("thread/goal/updated", { threadId: thread.id, turnId: null, goal: thread.goal }),
    );
    return { goal: thread.goal };
  },
  "thread/goal/clear": () => {
    thread.goal = null;
    saveThread(thread);
    setImmediate(() => notify("thread/goal/cleared", { threadId: thread.id }));
    return { cleared: true };
  },
  "thread/read": () => ({
    thread: { id: thread.id, status: { type: activeTurn === null ? "idle" : "active" } },
  }),
  "thread/turns/list": () => ({ data: [...thread.turns].reverse() }),
  "turn/start": (params) => {
    const turnId = `turn-${thread.turns.length + 1}`;
    thread.turns.push({ id: turnId, status: "inProgress" });
    saveThread(thread);
    activeTurn = turnId;
    const text = params.input?.[0]?.text ?? "";
    if (text === "no-answer") return undefined;
    const replay = lateResumeUsage;
    lateResumeUsage = null;
    setImmediate(() => {
      replay?.();
      void playTurn(turnId, text);
    });
    return { turn: { id: turnId, status: "inProgress" } };
  },
  "turn/steer": (params) => {
    if (params.expectedTurnId !== activeTurn) return { error: { code: -32000, message: "no such turn" } };
    // As Codex answers a steer for a turn it has just ended, before the runner saw the end.
    if (params.input?.[0]?.text === "refuse")
      return { error: { code: -32600, message: "no active turn to steer" } };
    setImmediate(() => {
      void agentMessage(activeTurn, `steered: ${params.input?.[0]?.text ?? ""}`).then(() =>
        finishTurn(activeTurn, "completed"),
      );
    });
    return { turnId: activeTurn };
  },
  "turn/interrupt": (params) => {
    setImmediate(() => finishTurn(params.turnId, "interrupted"));
    return {};
  },
};

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  log({ kind: "received", message });
  if (deaf) return;
  if (message.method === undefined) {
    waiting.get(message.id)?.(message.result ?? message.error);
    waiting.delete(message.id);
    return;
  }
  if (message.id === undefined || hostileStart(mode, message)) return;
  const handler = handlers[message.method];
  if (handler === undefined) {
    send({ id: message.id, error: { code: -32601, message: `unknown method ${message.method}` } });
    return;
  }
  const result = handler(message.params ?? {});
  if (result === undefined) return;
  if (result.error !== undefined) send({ id: message.id, error: result.error });
  else send({ id: message.id, result });
});
// "outlive-runner" stays up once its stdin ends: a provider that does not notice its runner is gone.
if (mode === "outlive-runner") setInterval(() => undefined, 60_000);
else process.stdin.on("end", () => process.exit(0));
