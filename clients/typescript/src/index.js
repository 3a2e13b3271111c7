// Hindsight client for JavaScript and TypeScript (ESM). Types: ./index.d.ts, over the
// OpenAPI document's types in ./schema.d.ts (openapi-typescript); requests: openapi-fetch.
import createClient from "openapi-fetch";

const WRITES = new Set(["POST", "PATCH", "PUT", "DELETE"]);
const RETRY_STATUSES = new Set([429, 503]);

/** An error answer of the API (RFC 9457 problem+json) or no answer at all. */
export class HindsightError extends Error {
  constructor(status, problem = {}, retryAfterS = null) {
    const code = problem.code || (status ? `http_${status}` : "api_unreachable");
    super(`${code}: ${problem.detail || problem.title || "request failed"}`);
    this.name = "HindsightError";
    this.status = status;
    this.code = code;
    this.title = problem.title ?? "";
    this.detail = problem.detail ?? "";
    this.requestId = problem.request_id ?? null;
    this.errors = problem.errors ?? [];
    this.problem = problem;
    this.retryAfterS = retryAfterS;
    // A split store or append is not atomic: when part k fails, the joined answer of the
    // parts before it, already written (results, or seqs...); null when none was.
    this.written = null;
  }
}

function retryAfterMs(response) {
  const value = response.headers.get("retry-after");
  if (value == null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * fetch with retries: 429 and 503 (answers that say nothing was done) wait `Retry-After`
 * (capped at maxWaitMs) or an exponential backoff with jitter; a failed connection is retried
 * too. The request is cloned per attempt, so a write keeps its one Idempotency-Key.
 */
function retryingFetch({ attempts, backoffMs, maxWaitMs, timeoutMs, fetchImpl }) {
  return async (request) => {
    const original = request.clone();
    for (let attempt = 1; ; attempt++) {
      const signal = AbortSignal.timeout(timeoutMs);
      let response;
      try {
        response = await fetchImpl(new Request(original.clone(), { signal }));
      } catch (error) {
        if (error?.name === "TimeoutError" || attempt >= attempts) {
          const code = error?.name === "TimeoutError" ? "api_timeout" : "api_unreachable";
          throw new HindsightError(0, { code, detail: `${request.url}: ${error?.message ?? error}` });
        }
        await sleep(Math.min(maxWaitMs, backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random())));
        continue;
      }
      if (!RETRY_STATUSES.has(response.status) || attempt >= attempts) return response;
      const wait = retryAfterMs(response) ?? backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random());
      await response.body?.cancel();
      await sleep(Math.min(maxWaitMs, wait));
    }
  };
}

async function unwrap(result) {
  const { data, error, response } = result;
  if (response.ok) return data;
  const problem = error && typeof error === "object" ? error : { detail: String(error ?? "") };
  const after = retryAfterMs(response);
  throw new HindsightError(response.status, problem, after == null ? null : after / 1000);
}

const seg = (value) => ({ path: value });

/**
 * Where to cut a /store batch or a working-memory append the service refused for its size in
 * model tokens (a 422 whose errors[0] has type "too_many_tokens", the limit and each item's
 * item_tokens in order): consecutive parts, each within the limit by those counts, counted as
 * the service counts a request: each distinct text once. The service counts a text repeated
 * in the request at its first copy only (its repeats show 0 more tokens); a part without that
 * first copy pays it again, at its first repeat (`text`: the item's field holding its text,
 * "value" for a unit, "content" for a message). null for any other error, a batch of one
 * item, or an item alone over the limit (nothing to split: shorten it). A batch over the
 * service's number of items (errors[0] type "too_long" with its limit: more than 100
 * messages or units) is cut into consecutive parts of that many items.
 */
export function storeParts(memories, errors, text = "value") {
  const first = errors?.[0] ?? {};
  const counts = first.item_tokens;
  const limit = first.limit;
  if (first.type === "too_long" && Number.isInteger(limit) && limit > 0
      && limit < memories.length) {
    const parts = [];
    for (let i = 0; i < memories.length; i += limit) parts.push(memories.slice(i, i + limit));
    return parts;
  }
  if (first.type !== "too_many_tokens" || !Array.isArray(counts) || !Number.isInteger(limit)
      || counts.length !== memories.length || memories.length < 2
      || counts.some((n) => !Number.isInteger(n) || n > limit)) {
    return null;
  }
  const textTokens = new Map(); // a text's tokens, at its first copy in the request
  const parts = [[]];
  let held = new Set(); // the texts of the part being filled
  let used = 0;
  counts.forEach((n, i) => {
    const value = memories[i]?.[text];
    const key = typeof value === "string" ? value : null;
    const repeat = key !== null && textTokens.has(key);
    if (key !== null && !repeat) textTokens.set(key, n);
    // A repeat pays its text's tokens in a part that does not hold the text yet.
    const extra = repeat ? textTokens.get(key) : 0;
    let cost = held.has(key) ? n : n + extra;
    if (parts.at(-1).length && used + cost > limit) {
      parts.push([]);
      held = new Set();
      used = 0;
      cost = n + extra;
    }
    used += cost;
    parts.at(-1).push(memories[i]);
    if (key !== null) held.add(key);
  });
  return parts.length > 1 ? parts : null;
}

// Part answers.length of a split call failed with `error`: its `written` becomes the joined
// answer of the parts before it and of what the failing part itself wrote (its own
// `written`, when it was split further); null when nothing was written.
function partlyWritten(error, answers, join) {
  if (!(error instanceof HindsightError)) return error;
  const done = error.written == null ? answers : [...answers, error.written];
  error.written = done.length ? join(done) : null;
  return error;
}

const joinStores = (answers) => ({ results: answers.flatMap((a) => a.results) });

const joinAppends = (answers) => ({
  ...answers.at(-1),
  seqs: answers.flatMap((a) => a.seqs),
  tokens: answers.flatMap((a) => a.tokens),
  embedded_first_window: answers.flatMap((a) => a.embedded_first_window ?? []),
});

/**
 * A client of one Hindsight API. Options: baseUrl (default http://127.0.0.1:8000), apiKey,
 * attempts (3), backoffMs (500), maxWaitMs (30000), timeoutMs (30000), fetch.
 * `raw` is the typed openapi-fetch client for every operation of the OpenAPI document.
 */
export function createHindsight(options = {}) {
  const {
    baseUrl = "http://127.0.0.1:8000",
    apiKey = null,
    attempts = 3,
    backoffMs = 500,
    maxWaitMs = 30000,
    timeoutMs = 30000,
    fetch: fetchImpl = globalThis.fetch,
  } = options;
  const raw = createClient({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
    fetch: retryingFetch({ attempts, backoffMs, maxWaitMs, timeoutMs, fetchImpl }),
  });
  raw.use({
    onRequest({ request }) {
      if (WRITES.has(request.method) && !request.headers.has("Idempotency-Key")) {
        request.headers.set("Idempotency-Key", crypto.randomUUID());
      }
      return request;
    },
  });
  const call = (promise) => promise.then(unwrap);

  const api = {
    raw,
    health: () => call(raw.GET("/health")),
    // A batch over the service's token budget per request (the 422 lists each unit's tokens)
    // goes again as consecutive parts that fit, keys KEY-0, KEY-1, ..., results joined in
    // order; a part that fails throws, the parts before it stay stored and the error's
    // `written` holds their results. split: false throws the 422 instead.
    async store(memories, { idempotencyKey, split = true } = {}) {
      const key = idempotencyKey ?? crypto.randomUUID();
      try {
        return await call(raw.POST("/store", {
          body: { memories },
          headers: { "Idempotency-Key": key },
        }));
      } catch (error) {
        const parts = split && error instanceof HindsightError && error.status === 422
          ? storeParts(memories, error.errors) : null;
        if (!parts) throw error;
        const answers = [];
        for (const [i, part] of parts.entries()) {
          try {
            answers.push(await api.store(part, { idempotencyKey: `${key}-${i}` }));
          } catch (failed) {
            throw partlyWritten(failed, answers, joinStores);
          }
        }
        return joinStores(answers);
      }
    },
    recall: (body) => call(raw.POST("/recall", { body })),
    listMemories: (query = {}) => call(raw.GET("/memories", { params: { query } })),
    async *iterMemories(query = {}) {
      let cursor = query.cursor ?? undefined;
      do {
        const page = await api.listMemories({ ...query, cursor });
        yield* page.memories;
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
    },
    getMemory: (memoryId) =>
      call(raw.GET("/memories/{memory_id}", { params: seg({ memory_id: memoryId }) })),
    updateMemory: (memoryId, body) =>
      call(raw.PATCH("/memories/{memory_id}", { params: seg({ memory_id: memoryId }), body })),
    forgetMemory: (memoryId) =>
      call(raw.DELETE("/memories/{memory_id}", { params: seg({ memory_id: memoryId }) })),
    stats: (query = {}) => call(raw.GET("/stats", { params: { query } })),
    // An append whose messages' embedding windows are over the service's token budget per
    // request (the 422 lists each message's window tokens) goes again as consecutive appends
    // that fit, in order (a text repeated in the append counted once per part, as the service
    // counts it), the answers joined (seqs, tokens, embedded_first_window; session after the
    // last). Not atomic: a part that fails throws, the parts before it stay appended and the
    // error's `written` is their joined answer (their seqs), so append only the rest again.
    // split: false throws the 422 instead.
    async append(sessionId, messages, { split = true } = {}) {
      try {
        return await call(raw.POST("/working_memory/{session_id}/messages", {
          params: seg({ session_id: sessionId }),
          body: { messages },
        }));
      } catch (error) {
        const parts = split && error instanceof HindsightError && error.status === 422
          ? storeParts(messages, error.errors, "content") : null;
        if (!parts) throw error;
        const answers = [];
        for (const part of parts) {
          try {
            answers.push(await api.append(sessionId, part));
          } catch (failed) {
            throw partlyWritten(failed, answers, joinAppends);
          }
        }
        return joinAppends(answers);
      }
    },
    window: (sessionId, query = {}) =>
      call(raw.GET("/working_memory/{session_id}", {
        params: { path: { session_id: sessionId }, query },
      })),
    closeSession: (sessionId, body = {}) =>
      call(raw.POST("/working_memory/{session_id}/close", {
        params: seg({ session_id: sessionId }),
        body,
      })),
    extract: (body, { wait } = {}) =>
      call(raw.POST("/extract", { params: { query: wait == null ? {} : { wait } }, body })),
    extractionJob: (jobId) =>
      call(raw.GET("/extract/{job_id}", { params: seg({ job_id: jobId }) })),
    async waitForJob(jobId, { timeoutMs: limit = 60000, pollMs = 500 } = {}) {
      const deadline = Date.now() + limit;
      for (;;) {
        const job = await api.extractionJob(jobId);
        if (job.status === "succeeded" || job.status === "failed") return job;
        if (Date.now() > deadline) {
          throw new HindsightError(0, { code: "api_timeout", detail: `job ${jobId} still ${job.status}` });
        }
        await sleep(pollMs);
      }
    },
    context: (query) => call(raw.GET("/context", { params: { query } })),
  };
  return api;
}
