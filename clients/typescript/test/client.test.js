// node --test against a running service: HINDSIGHT_URL and HINDSIGHT_API_KEY (a key of an
// empty namespace). Skipped, saying why, when HINDSIGHT_URL is not set.
import assert from "node:assert/strict";
import http from "node:http";
import { test } from "node:test";

import { createHindsight, HindsightError } from "../src/index.js";

const url = process.env.HINDSIGHT_URL;
const key = process.env.HINDSIGHT_API_KEY;
const live = { skip: url ? false : "set HINDSIGHT_URL (and HINDSIGHT_API_KEY) to a running service" };

test("store, recall, read, page, update and forget", live, async () => {
  const api = createHindsight({ baseUrl: url, apiKey: key });
  const stored = await api.store([
    { user_id: "ts", type: "constraint", value: "The user is allergic to peanuts", entities: ["peanuts"] },
    { user_id: "ts", value: "用户住在上海。" },
  ]);
  assert.deepEqual(stored.results.map((r) => r.outcome), ["created", "created"]);
  const found = await api.recall({ query: "what can't the user eat?", user_id: "ts", top_k: 1 });
  assert.equal(found.memories[0].id, stored.results[0].id);
  assert.ok(found.memories[0].score > 0);
  const detail = await api.getMemory(stored.results[1].id);
  assert.equal(detail.value, "用户住在上海。");
  const seen = [];
  for await (const unit of api.iterMemories({ user_id: "ts", limit: 1 })) seen.push(unit.id);
  assert.deepEqual(new Set(seen), new Set(stored.results.map((r) => r.id)));
  const updated = await api.updateMemory(stored.results[1].id, { expires_at: null });
  assert.equal(updated.memory.expires_at, null);
  await api.forgetMemory(stored.results[1].id);
  const stats = await api.stats();
  assert.equal(stats.total_units, 1);
});

test("a write replays its Idempotency-Key", live, async () => {
  const api = createHindsight({ baseUrl: url, apiKey: key });
  const body = [{ user_id: "ts-idem", value: "The user's locker number is 4711" }];
  const first = await api.store(body, { idempotencyKey: "ts-idem-1" });
  const again = await api.store(body, { idempotencyKey: "ts-idem-1" });
  assert.equal(again.results[0].id, first.results[0].id);
  await assert.rejects(
    api.store([{ user_id: "ts-idem", value: "other" }], { idempotencyKey: "ts-idem-1" }),
    (error) => error instanceof HindsightError && error.code === "idempotency_key_reused",
  );
});

test("working memory, close and the extraction job", live, async () => {
  const api = createHindsight({ baseUrl: url, apiKey: key });
  await api.append("ts-trip", [{ role: "user", user_id: "ts-bob", content: "I am allergic to shellfish." }]);
  const window = await api.window("ts-trip", { query: "allergies" });
  assert.deepEqual(window.messages.map((m) => m.content), ["I am allergic to shellfish."]);
  const closed = await api.closeSession("ts-trip");
  const job = await api.waitForJob(closed.job.id, { timeoutMs: 60000, pollMs: 200 });
  assert.equal(job.status, "succeeded");
  const context = await api.context({ user_id: "ts-bob", query: "what can't bob eat?" });
  assert.match(context.text, /shellfish/);
});

test("errors are HindsightError with the API's code", live, async () => {
  const api = createHindsight({ baseUrl: url, apiKey: key });
  await assert.rejects(api.recall({ query: "anything" }), (error) => {
    assert.ok(error instanceof HindsightError);
    assert.equal(error.status, 422);
    assert.equal(error.code, "invalid_request");
    assert.ok(error.requestId);
    return true;
  });
  await assert.rejects(api.getMemory("0199c0de-0000-7000-8000-000000000000"), { code: "not_found" });
  const anonymous = createHindsight({ baseUrl: url });
  await assert.rejects(anonymous.stats(), { status: 401, code: "missing_api_key" });
});

test("429 and 503 are retried after Retry-After, with the same Idempotency-Key", async () => {
  const seen = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers["idempotency-key"]);
    if (seen.length === 1) {
      res.writeHead(503, { "content-type": "application/problem+json", "retry-after": "1" });
      res.end(JSON.stringify({ code: "datastore_unavailable", status: 503, detail: "later" }));
    } else if (seen.length === 2) {
      res.writeHead(429, { "content-type": "application/problem+json", "retry-after": "0" });
      res.end(JSON.stringify({ code: "rate_limited", status: 429, detail: "slow down" }));
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ results: [], took_ms: 1 }));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  try {
    const started = Date.now();
    const answer = await createHindsight({ baseUrl }).store([{ user_id: "u", value: "v" }]);
    assert.deepEqual(answer.results, []);
    assert.equal(seen.length, 3);
    assert.ok(seen[0] && seen.every((k) => k === seen[0]), "one key for every attempt");
    assert.ok(Date.now() - started >= 900, "waited the Retry-After of 1 s");
    seen.length = 0;
    await assert.rejects(
      createHindsight({ baseUrl, attempts: 1 }).store([{ user_id: "u", value: "v" }]),
      { status: 503, code: "datastore_unavailable", retryAfterS: 1 },
    );
  } finally {
    server.close();
  }
});

test("a batch over the token budget is split where the service says", live, async () => {
  const api = createHindsight({ baseUrl: url, apiKey: key });
  const names = ["Anna", "Boris", "Chen", "Dara", "Emil", "Fatima", "Goran", "Hana", "Ivo", "Jun"];
  const skills = ["bake sourdough bread", "repair an old bicycle", "play the cello", "sail a dinghy"];
  const facts = names.flatMap((name) => skills.map((skill) => ({
    user_id: "ts-split",
    value: `${name} taught the user to ${skill} during a long weekend at the lake house up north.`,
  })));
  await assert.rejects(
    api.store(facts, { split: false }),
    (error) => error instanceof HindsightError && error.status === 422
      && error.errors[0].type === "too_many_tokens" && error.errors[0].item_tokens.length === 40,
  );
  const stored = await api.store(facts, { idempotencyKey: "ts-split-1" });
  assert.equal(stored.results.length, 40);
  const again = await api.store(facts, { idempotencyKey: "ts-split-1" });
  assert.deepEqual(again.results.map((r) => r.id), stored.results.map((r) => r.id));
});

test("an append over the token budget is split where the service says", live, async () => {
  const api = createHindsight({ baseUrl: url, apiKey: key });
  const messages = Array.from({ length: 30 }, (_, i) => ({
    role: "tool",
    content: `step ${i}: the build of module ${i} finished in ${i * 7} seconds with 0 warnings.`,
  }));
  await assert.rejects(
    api.append("ts-split", messages, { split: false }),
    (error) => error instanceof HindsightError && error.status === 422
      && error.errors[0].type === "too_many_tokens" && error.errors[0].item_tokens.length === 30,
  );
  assert.equal((await api.window("ts-split")).window_messages, 0);
  const appended = await api.append("ts-split", messages);
  assert.deepEqual(appended.seqs, Array.from({ length: 30 }, (_, i) => i + 1));
  assert.equal(appended.tokens.length, 30);
  assert.equal(appended.session.messages, 30);
});

test("an append or a store of more than 100 items is split into parts of 100", live, async () => {
  // Tester hbreak7 H13: split did not split past the 100 items one request takes.
  const api = createHindsight({ baseUrl: url, apiKey: key });
  const messages = Array.from({ length: 130 }, (_, i) => ({ role: "user", content: `ok ${i}` }));
  await assert.rejects(
    api.append("ts-many", messages, { split: false }),
    (error) => error instanceof HindsightError && error.status === 422
      && error.errors[0].type === "too_long" && error.errors[0].limit === 100,
  );
  const appended = await api.append("ts-many", messages);
  assert.deepEqual(appended.seqs, Array.from({ length: 130 }, (_, i) => i + 1));
  const units = Array.from({ length: 105 }, (_, i) => ({ user_id: "ts-many", value: `room ${i} is booked` }));
  const stored = await api.store(units);
  assert.equal(stored.results.length, 105);
});

// The real fetch, recording each answer's status; from the failFrom-th request on it answers
// none (the connection fails), as a service gone mid-call.
function recordingFetch(failFrom = null) {
  const statuses = [];
  const fetchImpl = async (input, init) => {
    if (failFrom !== null && statuses.length >= failFrom) throw new TypeError("injected: fetch failed");
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { statuses, fetchImpl };
}

test("a split append counts a repeated text in each part that lacks it", live, async () => {
  const { statuses, fetchImpl } = recordingFetch();
  const api = createHindsight({ baseUrl: url, apiKey: key, fetch: fetchImpl });
  const long = "Tool log: " + "build step finished with exit code 0; ".repeat(60); // 384 tokens
  const messages = [long, "short note", long, "ok", long].map((content) => ({ role: "tool", content }));
  const appended = await api.append("ts-repeat", messages);
  assert.deepEqual(appended.seqs, [1, 2, 3, 4, 5]);
  // The refused whole, then one request per part (no fewer possible), no 422 after the first.
  assert.deepEqual(statuses, [422, 200, 200, 200, 200, 200]);
});

test("a split append that fails part way says what it wrote", live, async () => {
  const { statuses, fetchImpl } = recordingFetch(2); // the 422, the first part; the second fails
  const failing = createHindsight({ baseUrl: url, apiKey: key, fetch: fetchImpl, attempts: 1 });
  const notes = Array.from({ length: 6 }, (_, i) => `step ${i}: ` + "the build finished with exit code 0 ".repeat(16));
  const messages = notes.map((content) => ({ role: "tool", content }));
  let error = null;
  await failing.append("ts-written", messages).catch((e) => { error = e; });
  assert.ok(error instanceof HindsightError, String(error));
  assert.deepEqual(statuses, [422, 200]);
  const written = error.written.seqs;
  assert.ok(written.length > 0 && written.length < 6);
  const api = createHindsight({ baseUrl: url, apiKey: key });
  const rest = await api.append("ts-written", messages.slice(written.length));
  assert.deepEqual([...written, ...rest.seqs], [1, 2, 3, 4, 5, 6]);
  const window = await api.window("ts-written", { max_tokens: 100000 });
  assert.deepEqual(window.messages.map((m) => m.content), notes);
});
