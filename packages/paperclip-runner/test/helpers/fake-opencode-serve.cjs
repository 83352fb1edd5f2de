#!/usr/bin/env node
// A stand-in for `opencode serve` (as upstream tests its OpenCode proxy): the HTTP API the
// server's opencode-app-server-proxy.cjs drives, with basic auth, an SSE event stream, one
// session, and a prompt that answers with one assistant text part, its usage, then idle. The
// prompt "ask" first asks two questions (`question.asked`) and answers with what the reply
// (`POST /question/<id>/reply`) said, or that the question was rejected. The prompts "finish",
// "finish-twice" and "block" call the proxy's own MCP bridge (the `paperclip` server of the config
// the proxy wrote) with `paperclip_finish` (once or twice) or `paperclip_block`, claiming the
// contract of the task envelope it was sent, then answer with what the bridge said.
// The proxy runs it through the descriptor the runner handed over (/proc/self/fd/3).
const { readFileSync } = require("node:fs");
const { createServer } = require("node:http");
const { join } = require("node:path");

const args = process.argv.slice(2);
const port = Number(args[args.indexOf("--port") + 1]);
const expectedAuth = `Basic ${Buffer.from(
  `${process.env.OPENCODE_SERVER_USERNAME ?? "opencode"}:${process.env.OPENCODE_SERVER_PASSWORD ?? ""}`,
).toString("base64")}`;
const session = { id: "ses_fake_1", title: "Paperclip fake" };
const clients = new Set();

function json(response, status, value) {
  response.statusCode = status;
  response.setHeader("Content-Type", "application/json");
  response.end(JSON.stringify(value));
}

let eventSeq = 0;
function emit(value) {
  eventSeq += 1;
  const frame = `data: ${JSON.stringify({ id: `event-${eventSeq}`, ...value })}\n\n`;
  for (const response of clients) response.write(frame);
}

function answer(text) {
  const messageID = `message-${eventSeq + 1}`;
  emit({
    type: "message.updated",
    properties: { sessionID: session.id, info: { id: messageID, sessionID: session.id, role: "assistant" } },
  });
  emit({
    type: "message.part.updated",
    properties: {
      sessionID: session.id,
      part: {
        id: `part-${messageID}`,
        messageID,
        sessionID: session.id,
        type: "text",
        text,
        time: { start: 1, end: 2 },
      },
    },
  });
  emit({
    type: "message.updated",
    properties: {
      info: {
        id: messageID,
        sessionID: session.id,
        role: "assistant",
        tokens: { input: 3, output: 2 },
        cost: 0,
      },
    },
  });
  emit({ type: "session.idle", properties: { sessionID: session.id } });
}

/** OpenCode's question event, as its server asks the user (one option question with a custom answer, one text question). */
function ask() {
  emit({
    type: "question.asked",
    properties: {
      id: "que_fake_1",
      sessionID: session.id,
      questions: [
        {
          header: "Colour",
          question: "Which colour?",
          options: [{ label: "red", description: "warm" }, { label: "blue" }],
          custom: true,
          required: true,
        },
        { header: "Why", question: "Why that one?", required: true },
      ],
    },
  });
}

/** The result OpenCode's model proposes: done, or blocked on the board, claiming `contract`. */
function semanticResult(contract, blocked) {
  return {
    schema: "paperclip.run_result.v1",
    reportedWorkDisposition: blocked ? "blocked" : "done",
    summary: blocked ? "blocked through the bridge" : "finished through the bridge",
    ...(blocked
      ? {
          blocker: {
            reasonCode: "needs_access",
            owner: { kind: "user", name: "board" },
            unblockAction: "grant it",
            scope: "current_track",
          },
        }
      : {}),
    completionClaim: {
      contractRevision: contract.revision,
      objectiveSatisfied: !blocked,
      criteria: contract.criteria.map((criterion) => ({
        criterionId: criterion.id,
        status: blocked ? "not_satisfied" : "satisfied",
        evidenceRefs: [],
      })),
      remainingWork: [],
    },
    evidence: [],
    verification: [],
    attentionRequests: [],
    artifacts: [],
  };
}

/** OpenCode calling `tool` (`paperclip_finish`, `paperclip_block`) of the proxy's MCP bridge `times` times, as its model would. */
async function propose(envelope, tool, times) {
  const config = JSON.parse(
    readFileSync(join(process.env.XDG_CONFIG_HOME, "opencode", "opencode.json"), "utf8"),
  );
  const bridge = config.mcp.paperclip;
  const result = semanticResult(envelope.task.completionContract, tool === "paperclip_block");
  const said = [];
  for (let id = 1; id <= times; id += 1) {
    const response = await fetch(bridge.url, {
      method: "POST",
      headers: { ...bridge.headers, "Content-Type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: tool, arguments: result },
      }),
    });
    const answered = await response.json();
    said.push(JSON.stringify(answered.result?.content ?? answered.error));
  }
  answer(`${tool} said ${said.join(" then ")}`);
}

/** The prompts that propose a result through the bridge: the tool, and how many times it is called. */
const PROPOSALS = {
  finish: ["paperclip_finish", 1],
  "finish-twice": ["paperclip_finish", 2],
  block: ["paperclip_block", 1],
};

function readJson(request, use) {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => use(chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString("utf8"))));
}

const server = createServer((request, response) => {
  if (request.headers.authorization !== expectedAuth) return json(response, 401, { error: "unauthorized" });
  const url = request.url ?? "";
  if (url === "/global/health") return json(response, 200, { healthy: true, version: "1.18.29" });
  if (url === "/event") {
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    response.write(`data: ${JSON.stringify({ type: "server.connected", properties: {} })}\n\n`);
    clients.add(response);
    request.on("close", () => clients.delete(response));
    return;
  }
  if (request.method === "POST" && url === "/session") return json(response, 200, session);
  if (request.method === "GET" && url === `/session/${session.id}`) return json(response, 200, session);
  if (request.method === "GET" && url === `/session/${session.id}/message`) return json(response, 200, []);
  if (request.method === "GET" && url === "/session/status")
    return json(response, 200, { [session.id]: { type: "idle" } });
  if (request.method === "GET" && (url.startsWith("/question?") || url.startsWith("/permission?")))
    return json(response, 200, []);
  if (request.method === "POST" && url === `/session/${session.id}/abort`) return json(response, 200, true);
  if (request.method === "POST" && url.startsWith("/question/que_fake_1/reply?")) {
    readJson(request, (body) => {
      json(response, 200, true);
      answer(`you said ${JSON.stringify(body.answers)}`);
    });
    return;
  }
  if (request.method === "POST" && url.startsWith("/question/que_fake_1/reject?")) {
    json(response, 200, true);
    answer("the question was rejected");
    return;
  }
  if (request.method === "POST" && url === `/session/${session.id}/prompt_async`) {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const prompt = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      json(response, 204, null);
      const text = prompt.parts?.[0]?.text ?? "";
      // The proxy sends the turn's text as the `message` of its task envelope.
      if (text.endsWith('"message":"ask"}')) {
        setTimeout(ask, 10);
        return;
      }
      const proposal = Object.entries(PROPOSALS).find(([message]) =>
        text.endsWith(`"message":"${message}"}`),
      );
      if (proposal !== undefined) {
        const [, [tool, times]] = proposal;
        setTimeout(() => void propose(JSON.parse(text), tool, times), 10);
        return;
      }
      setTimeout(
        () => answer(`opencode answered (${prompt.providerID}/${prompt.modelID}): ${text.length} chars`),
        10,
      );
    });
    return;
  }
  json(response, 404, { error: `no route ${request.method} ${url}` });
});
server.listen(port, "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
