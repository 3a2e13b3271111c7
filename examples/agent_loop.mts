// An agent loop on Hindsight in TypeScript (Node 18+), the same loop as examples/agent_loop.py:
// read the window, recall, answer, append, close.
//
//   python3 scripts/serve.py                          # terminal 1: the service on 127.0.0.1:8000
//   (cd clients/typescript && npm ci)                 # once: the client and TypeScript
//   clients/typescript/node_modules/.bin/tsc -p examples && node examples/agent_loop.mjs
//                                                     # terminal 2: compile this file, run it
//
// tsc checks it in strict mode against the client's types (generated from the OpenAPI
// document) and writes examples/agent_loop.mjs beside it (not committed).
//
// Session 1 talks with Bob about a flight; closing it turns the transcript into memory units
// (hindsight extraction). Session 2, a new conversation, asks for a snack on the flight: recall
// brings back Bob's peanut allergy from session 1 and it goes into the model's prompt.
//
// Each turn: 1. append the user's message to the session's working memory; 2. read the window
// (the session's messages that fit a token budget, ranked for the turn); 3. recall long-term
// units for the turn; 4. answer with the model (system prompt = the recalled units, messages =
// the window); 5. append the answer. Then close the session and wait for its extraction job.
//
// The model is any OpenAI-compatible chat endpoint: --llm-url / LLM__BASE_URL (with
// LLM__API_KEY, LLM__MODEL). Without one the answer is a stand-in that quotes what memory said,
// so the loop runs offline. --url / --key (or HINDSIGHT_URL / HINDSIGHT_API_KEY) reach the
// service. In your own project: `npm install ./clients/typescript` and import "hindsight-client".
import { parseArgs } from "node:util";

import { createHindsight, type Hindsight } from "../clients/typescript/src/index.js";

/** One chat message as an OpenAI-compatible endpoint takes it. */
interface ChatMessage {
  role: string;
  content: string;
}

/** The model: a system prompt, the window's messages and the recalled values in; an answer out. */
type Answer = (system: string, messages: ChatMessage[], memories: string[]) => Promise<string>;

const SESSION_1 = [
  "Hi! I need a flight from Berlin to Tokyo next Friday.",
  "Window seat, please. And I am allergic to peanuts.",
];
const SESSION_2 = ["Can you pick a snack for my flight?"];

/** An OpenAI-compatible chat endpoint, or the offline stand-in when baseUrl is empty. */
function makeModel(baseUrl: string, apiKey: string | undefined, model: string): Answer {
  return async function answer(system, messages, memories) {
    if (!baseUrl) {
      if (memories.length === 0) return "Happy to help. (No memory about this yet.)";
      return "Keeping in mind what I remember: " + memories.slice(0, 2).join(" ");
    }
    const response = await fetch(`${baseUrl.replace(/\/+$/, "")}/chat/completions`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify({
        model,
        temperature: 0,
        messages: [{ role: "system", content: system }, ...messages],
      }),
      signal: AbortSignal.timeout(60000),
    });
    if (!response.ok) throw new Error(`model: HTTP ${response.status} ${await response.text()}`);
    const data = (await response.json()) as { choices: { message: { content: string | null } }[] };
    return String(data.choices[0].message.content ?? "").trim();
  };
}

function systemPrompt(memories: string[]): string {
  const lines = ["You are a travel assistant. Use what you remember about the user."];
  if (memories.length) {
    lines.push("What you remember about the user:", ...memories.map((m) => `- ${m}`));
  }
  return lines.join("\n");
}

/** One turn of the loop (steps 1-5 above); returns the answer. */
async function turn(
  api: Hindsight,
  answer: Answer,
  sessionId: string,
  userId: string,
  text: string,
): Promise<string> {
  await api.append(sessionId, [{ role: "user", user_id: userId, content: text }]);
  const window = await api.window(sessionId, { query: text, max_tokens: 2000 });
  const recalled = (await api.recall({ query: text, user_id: userId, top_k: 3, min_score: 0.3 }))
    .memories;
  const memories = recalled.map((hit) => hit.value);
  const messages: ChatMessage[] = window.messages.map((m) => ({ role: m.role, content: m.content }));
  const reply = await answer(systemPrompt(memories), messages, memories);
  await api.append(sessionId, [{ role: "assistant", content: reply }]);
  console.log(`user:      ${text}`);
  // score orders this answer's hits (its scale depends on the other candidates); relevance,
  // 0..1, is comparable across turns (how likely the unit answers the turn by its own words)
  for (const hit of recalled) {
    const figures = `score ${hit.score.toFixed(2)}  relevance ${hit.relevance.toFixed(2)}`;
    console.log(`  recalled  ${figures}  ${hit.value}`);
  }
  console.log(`assistant: ${reply}`);
  return reply;
}

const USAGE = `usage: node examples/agent_loop.mjs [options]

An agent loop on Hindsight: two sessions with one user; the second recalls what the first said.

options:
  --url URL          the service (HINDSIGHT_URL; default http://127.0.0.1:8000)
  --key KEY          an API key (HINDSIGHT_API_KEY; none on a loopback-only service)
  --user ID          the user_id (default bob)
  --run NAME         suffix of the two session ids (default demo)
  --llm-url URL      an OpenAI-compatible chat endpoint (LLM__BASE_URL; default: offline stand-in)
  --llm-model NAME   its model (LLM__MODEL; default gpt-4o-mini)
  -h, --help         this text`;

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        url: { type: "string", default: process.env.HINDSIGHT_URL || "http://127.0.0.1:8000" },
        key: { type: "string", default: process.env.HINDSIGHT_API_KEY || "" },
        user: { type: "string", default: "bob" },
        run: { type: "string", default: "demo" }, // suffix of the two session ids
        "llm-url": { type: "string", default: process.env.LLM__BASE_URL || "" },
        "llm-model": { type: "string", default: process.env.LLM__MODEL || "gpt-4o-mini" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    // An unknown option: say which and how to use it, not a stack trace (tester C2).
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const args = parsed.values;
  if (args.help) {
    console.log(USAGE);
    return;
  }
  const api = createHindsight({ baseUrl: args.url, apiKey: args.key || null });
  const answer = makeModel(args["llm-url"], process.env.LLM__API_KEY, args["llm-model"]);
  console.log(`model: ${args["llm-url"] || "offline stand-in (set --llm-url or LLM__BASE_URL)"}`);

  const first = `trip-${args.run}-1`;
  console.log(`\n== session ${first}`);
  for (const text of SESSION_1) await turn(api, answer, first, args.user, text);
  const closed = await api.closeSession(first, { timezone: "Europe/Berlin" });
  if (closed.job === null) {
    console.log("closed: nothing to extract (no extraction job)");
  } else {
    const job = await api.waitForJob(closed.job.id, { timeoutMs: 120000 });
    const units = job.units ?? [];
    console.log(`closed: extraction job ${job.status}, ${units.length} units`);
    for (const unit of units) console.log(`  ${String(unit.type).padEnd(11)} ${unit.value}`);
  }

  const second = `trip-${args.run}-2`;
  console.log(`\n== session ${second} (a new conversation)`);
  for (const text of SESSION_2) await turn(api, answer, second, args.user, text);
  await api.closeSession(second);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
