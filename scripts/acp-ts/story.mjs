// Drives `forge acp` with the official ACP TypeScript SDK's client, so
// that forge is checked against a client it did not write. The model is
// a fake OpenAI-compatible server in this process, scripted by prompt.
//
// node story.mjs FORGE_BINARY
//
// The story: an edit approved (written through the editor's fs), a
// command rejected, a command cancelled in the editor's terminal, a mode
// switch to yolo, the session closed and loaded again. Each step prints
// what it checked; any failure exits 1.

import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";

import * as acp from "@agentclientprotocol/sdk";

const forge = process.argv[2];
if (!forge) {
  console.error("usage: node story.mjs FORGE_BINARY");
  process.exit(2);
}

// The model's answers, by the last user prompt; after a tool result, the
// model says it is done.
const script = {
  "fix the typo": { text: "Fixing.", call: ["Edit", { file_path: "main.go", old_string: "helo", new_string: "hello" }] },
  "clean up": { text: "Cleaning.", call: ["Bash", { command: "rm -rf build" }] },
  "wait a while": { call: ["Bash", { command: "sleep 30" }] },
  "write notes": { call: ["Write", { file_path: "notes.txt", content: "notes\n" }] },
};

function lastPrompt(messages) {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "tool") return null;
    if (m.role === "user") return typeof m.content === "string" ? m.content : m.content.map((p) => p.text ?? "").join("");
  }
  return null;
}

function chunk(delta, finish) {
  return `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: "fake", choices: [{ index: 0, delta, finish_reason: finish ?? null }] })}\n\n`;
}

let calls = 0;
const model = http.createServer((req, res) => {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    const r = JSON.parse(body);
    const prompt = lastPrompt(r.messages);
    const turn = (prompt && Object.entries(script).find(([k]) => prompt.includes(k))?.[1]) || { text: "Done." };
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(chunk({ role: "assistant", content: turn.text ?? "" }));
    if (turn.call) {
      const [name, args] = turn.call;
      res.write(chunk({ tool_calls: [{ index: 0, id: `call_${++calls}`, type: "function", function: { name, arguments: JSON.stringify(args) } }] }));
    }
    res.write(chunk({}, turn.call ? "tool_calls" : "stop"));
    res.write(`data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: "fake", choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } })}\n\n`);
    res.end("data: [DONE]\n\n");
  });
});
await new Promise((ok) => model.listen(0, "127.0.0.1", ok));
const baseURL = `http://127.0.0.1:${model.address().port}/v1`;

const home = mkdtempSync(join(tmpdir(), "forge-acp-ts-"));
const project = join(home, "project");
mkdirSync(project);
writeFileSync(join(project, "main.go"), "package main\n\n// helo\n");

const child = spawn(forge, ["acp", "--provider", "openai", "--base-url", baseURL, "--model", "gpt-4o", "--sandbox", "off"], {
  cwd: project,
  stdio: ["pipe", "pipe", "inherit"],
  env: { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_STATE_HOME: join(home, ".state"), OPENAI_API_KEY: "test" },
});
const exited = new Promise((ok) => child.on("exit", (code) => ok(code)));

let failed = false;
function check(ok, what) {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed = true;
}

// What the editor saw, and how it answers.
const updates = [];
const fsCalls = [];
let answer = "allow_once";
const terminals = new Map();
let onTerminal = () => {};

const app = acp
  .client({ name: "forge-acp-ts-check" })
  .onNotification(acp.methods.client.session.update, (c) => {
    updates.push(c.params.update);
  })
  .onRequest(acp.methods.client.session.requestPermission, (c) => {
    updates.push({ sessionUpdate: "permission", ...c.params });
    return { outcome: { outcome: "selected", optionId: answer } };
  })
  // forge reads and writes files itself, never through these: an editor
  // opens a path by name, following a link swapped in after forge checked it.
  .onRequest(acp.methods.client.fs.readTextFile, (c) => {
    fsCalls.push(c.params.path);
    return { content: readFileSync(c.params.path, "utf8") };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, (c) => {
    fsCalls.push(c.params.path);
    writeFileSync(c.params.path, c.params.content);
    return {};
  })
  .onRequest(acp.methods.client.terminal.create, (c) => {
    const id = `term_${terminals.size + 1}`;
    const p = spawn(c.params.command, c.params.args ?? [], { cwd: c.params.cwd ?? project });
    const t = { p, output: "", exit: new Promise((ok) => p.on("exit", (code, signal) => ok({ exitCode: code, signal }))) };
    p.stdout.on("data", (d) => (t.output += d));
    p.stderr.on("data", (d) => (t.output += d));
    terminals.set(id, t);
    onTerminal(id);
    return { terminalId: id };
  })
  .onRequest(acp.methods.client.terminal.waitForExit, async (c) => terminals.get(c.params.terminalId).exit)
  .onRequest(acp.methods.client.terminal.output, async (c) => {
    const t = terminals.get(c.params.terminalId);
    const done = t.p.exitCode !== null || t.p.signalCode !== null;
    return { output: t.output, truncated: false, exitStatus: done ? { exitCode: t.p.exitCode, signal: t.p.signalCode } : undefined };
  })
  .onRequest(acp.methods.client.terminal.kill, (c) => {
    terminals.get(c.params.terminalId).p.kill("SIGKILL");
    return {};
  })
  .onRequest(acp.methods.client.terminal.release, (c) => {
    terminals.get(c.params.terminalId)?.p.kill("SIGKILL");
    return {};
  });

const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

await app.connectWith(stream, async (agent) => {
  const init = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  });
  check(init.agentInfo?.name === "forge" && init.agentCapabilities?.loadSession === true, "initialize: forge, loadSession");

  const s = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
  const sessionId = s.sessionId;
  check(s.modes?.currentModeId === "ask" && s.modes.availableModes.length === 4, "session/new: four modes, ask current");

  const prompt = (text) => agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
  const seen = () => updates.splice(0);

  // An edit, approved: the diff is shown, forge writes the file.
  let r = await prompt("fix the typo");
  let us = seen();
  const asked = us.find((u) => u.sessionUpdate === "permission");
  check(asked?.toolCall?.content?.[0]?.type === "diff", "the edit is put to the editor with its diff");
  check(us.some((u) => u.sessionUpdate === "tool_call" && u.kind === "edit" && u.title === "Edit main.go"), "the edit is a tool call of kind edit");
  check(readFileSync(join(project, "main.go"), "utf8").includes("// hello"), "the approved edit is written");
  check(fsCalls.length === 0, `forge sent no file system request to the editor (${fsCalls.join(", ")})`);
  check(r.stopReason === "end_turn", `stop reason ${r.stopReason}`);

  // A command, rejected: it never runs, the call fails.
  answer = "reject_once";
  mkdirSync(join(project, "build"));
  r = await prompt("clean up");
  us = seen();
  check(us.some((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed"), "the rejected command's call failed");
  check(terminals.size === 0, "the rejected command never ran");

  // A command cancelled while it runs in the editor's terminal.
  answer = "allow_once";
  onTerminal = () => setTimeout(() => agent.notify(acp.methods.agent.session.cancel, { sessionId }), 200);
  r = await prompt("wait a while");
  us = seen();
  check(r.stopReason === "cancelled", `cancel in the middle: stop reason ${r.stopReason}`);
  check(us.some((u) => u.sessionUpdate === "tool_call_update" && u.content?.[0]?.type === "terminal"), "the command shows its terminal");
  await new Promise((ok) => setTimeout(ok, 300));
  check([...terminals.values()].every((t) => t.p.exitCode !== null || t.p.signalCode !== null), "the cancelled command was killed");

  // Yolo: the write runs without a question.
  onTerminal = () => {};
  await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: "yolo" });
  r = await prompt("write notes");
  us = seen();
  check(!us.some((u) => u.sessionUpdate === "permission"), "in yolo mode nothing is asked");
  check(readFileSync(join(project, "notes.txt"), "utf8") === "notes\n", "the write ran");

  // Closed and loaded again: the conversation is replayed.
  await agent.request(acp.methods.agent.session.close, { sessionId });
  await agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
  us = seen();
  check(us.some((u) => u.sessionUpdate === "user_message_chunk" && u.content.text === "fix the typo"), "session/load replays the prompts");
  check(us.filter((u) => u.sessionUpdate === "tool_call").length === 4, "session/load replays the calls");
});

child.stdin.end();
const code = await exited;
check(code === 0, `forge exits 0 when its standard input closes (${code})`);
model.close();
process.exit(failed ? 1 : 0);
