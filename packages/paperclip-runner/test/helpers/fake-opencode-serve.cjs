#!/usr/bin/env node
// A stand-in for `opencode serve` (as upstream tests its OpenCode proxy): the HTTP API the
// server's opencode-app-server-proxy.cjs drives, with basic auth, an SSE event stream, one
// session, and a prompt that answers with one assistant text part, its usage, then idle. The
// prompt "ask" first asks two questions (`question.asked`) and answers with what the reply
// (`POST /question/<id>/reply`) said, or that the question was rejected. The prompt "finish" calls
// the proxy's own MCP bridge (the `paperclip` server of the config the proxy wrote) with
// `paperclip_finish`, claiming the contract of the task envelope it was sent, then answers.
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

/** OpenCode calling the `paperclip_finish` tool of the proxy's MCP bridge, as its model would. */
async function finish(envelope) {
  const config = JSON.parse(
    readFileSync(join(process.env.XDG_CONFIG_HOME, "opencode", "opencode.json"), "utf8"),
  );
  const bridge = config.mcp.paperclip;
  const contract = envelope.task.completionContract;
  const result = {
    schema: "paperclip.run_result.v1",
    reportedWorkDisposition: "done",
    summary: "finished through the bridge",
    completionClaim: {
      contractRevision: contract.revision,
      objectiveSatisfied: true,
      criteria: contract.criteria.map((criterion) => ({
        criterionId: criterion.id,
        status: "satisfied",
        evidenceRefs: [],
      })),
      remainingWork: [],
    },
    evidence: [],
    verification: [],
    attentionRequests: [],
    artifacts: [],
  };
  const response = await fetch(bridge.url, {
    method: "POST",
    headers: { ...bridge.headers, "Content-Type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "paperclip_finish", arguments: result },
    }),
  });
  const answered = await response.json();
  answer(`finish said ${JSON.stringify(answered.result?.content ?? answered.error)}`);
}

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
      if (text.endsWith('"message":"finish"}')) {
        setTimeout(() => void finish(JSON.parse(text)), 10);
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
