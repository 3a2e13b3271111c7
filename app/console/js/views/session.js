// Working memory: a session's window against its token budget — what made it in, what was
// left out and why (GET /working_memory/{id}?include_omitted=true) — and the close →
// extraction job with its units (POST …/close, GET /extract/{id}, GET /extract?session_id=).

import { get, post, query } from "../api.js";
import { errorBox, field, fmt, h, loading, replace, time } from "../dom.js";
import { subjectList } from "./subjects.js";

const FINISHED = new Set(["succeeded", "failed"]);
const POLL_MS = 1000;
const POLL_LIMIT = 120;

function sessionList(current) {
  return h("aside", { class: "picker", "aria-label": "Sessions" }, h("h2", {}, "Sessions"),
    subjectList({
      kind: "session",
      label: "Session",
      current,
      href: (s) => `#/sessions/${encodeURIComponent(s.id)}`,
      count: (s) => (s.messages === null ? `${s.units} units` : `${s.messages} msgs`),
    }));
}

function meter(win) {
  const pct = win.budget_tokens > 0 ? Math.min(100, (100 * win.used_tokens) / win.budget_tokens) : 0;
  return h(
    "div",
    { class: "budget" },
    h("div", { class: "meter", role: "meter", "aria-valuemin": 0, "aria-valuemax": win.budget_tokens,
      "aria-valuenow": win.used_tokens, "aria-label": "Tokens used of the budget" },
    h("span", { style: { width: `${pct}%` } })),
    h("p", {}, h("strong", {}, `${win.used_tokens} / ${win.budget_tokens} tokens`),
      ` used (max_tokens ${win.max_tokens} less 20% headroom for the answer) · `,
      `${win.messages.length} of ${win.window_messages} window messages in, `,
      `${win.omitted_seqs.length} left out · ${fmt(win.took_ms, 1)} ms`),
  );
}

function messageRow(m, inWindow) {
  return h(
    "li",
    { class: `msg ${inWindow ? "in" : "out"}`, dataset: { seq: m.seq } },
    h("div", { class: "msg-head" },
      h("span", { class: `badge ${inWindow ? "status-active" : "status-archived"}` }, inWindow ? "in" : "left out"),
      ` #${m.seq} `, h("strong", {}, m.role), " · ", `${m.tokens} tokens`,
      m.truncated ? ` (cut from ${m.original_tokens})` : "",
      " · score ", fmt(m.score),
      m.scores ? h("small", { class: "muted" },
        ` (recency ${fmt(m.scores.recency, 2)}, relevance ${fmt(m.scores.relevance, 2)}, density ${fmt(m.scores.density, 2)})`) : null,
      m.scores && m.scores.standing ? h("span", { class: "badge standing" }, ` standing ${m.scores.standing}`) : null,
      " · ", time(m.created_at)),
    h("p", { class: "msg-body" }, m.content),
    // The service's one-line reason (`why`), for messages in the window and left out alike.
    m.why ? h("p", { class: "reason" }, `Why: ${m.why}`) : null,
  );
}

function jobView(job) {
  const units = job.units || [];
  return h(
    "div",
    { class: "job card", dataset: { job: job.id, status: job.status } },
    h("p", {}, h("strong", {}, `Extraction job: ${job.status}`),
      ` · ${job.trigger}${job.trigger_detail.length ? ` (${job.trigger_detail.join(", ")})` : ""}`,
      ` · ${job.transcript_messages} messages · attempt ${job.attempts}/${job.max_attempts}`,
      job.extractor ? ` · ${job.extractor}` : "", " · ", time(job.created_at)),
    job.error ? h("p", { class: "error" }, h("code", {}, job.error_code || "error"), " ", job.error) : null,
    units.length
      ? h("table", { class: "job-units" },
          h("thead", {}, h("tr", {}, ["Outcome", "Type", "Value"].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, units.map((u) => h("tr", {},
            h("td", { "data-label": "Outcome" }, u.outcome),
            h("td", { "data-label": "Type" }, u.type || "—"),
            h("td", { "data-label": "Value" }, u.memory_id
              ? h("a", { href: `#/unit/${u.memory_id}` }, u.value)
              : [u.value, u.reason ? h("small", { class: "muted" }, ` (${u.reason})`) : null])))))
      : h("p", { class: "muted" }, FINISHED.has(job.status) ? "No units." : "Waiting for the worker…"),
  );
}

async function follow(job, box) {
  replace(box, jobView(job));
  for (let i = 0; i < POLL_LIMIT && !FINISHED.has(job.status); i++) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    if (!box.isConnected) return;
    job = await get(`/extract/${job.id}`);
    replace(box, jobView(job));
  }
}

function closeForm(id, box, onDone) {
  const user = h("input", { name: "user_id", placeholder: "the session's own" });
  const form = h("form", { class: "close", "aria-labelledby": "close-h" },
    h("h2", { id: "close-h" }, "Close the task"),
    h("p", { class: "hint" }, "Queues hindsight extraction of the messages no earlier job took."),
    h("div", { class: "row" }, field("User", user),
      h("div", { class: "actions" }, h("button", { type: "submit" }, "Close and extract"))));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await post(`/working_memory/${encodeURIComponent(id)}/close`,
        user.value.trim() ? { user_id: user.value.trim() } : {});
      if (!answer.job) {
        replace(box, h("p", { role: "status" }, "Nothing to extract."));
        return;
      }
      await follow(answer.job, box);
      await onDone();
    } catch (error) {
      replace(box, errorBox(error));
    }
  });
  return form;
}

async function pastJobs(id) {
  const page = await get("/extract", { session_id: id, limit: 10 });
  if (!page.jobs.length) return h("p", { class: "muted" }, "No extraction job yet.");
  return h("div", { class: "jobs" }, page.jobs.map(jobView));
}

async function sessionDetail(root, id, params) {
  const q = h("input", { name: "query", value: params.query || "", placeholder: "what the next turn is about" });
  const max = h("input", { name: "max_tokens", type: "number", min: "1", value: params.max_tokens || "" ,
    placeholder: "default" });
  const form = h("form", { class: "row window-form", "aria-label": "Window" },
    field("Relevant to", q), field("Max tokens", max),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Show window")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = `#/sessions/${encodeURIComponent(id)}${query({ query: q.value.trim(), max_tokens: max.value })}`;
  });
  const win = await get(`/working_memory/${encodeURIComponent(id)}`, {
    query: params.query, max_tokens: params.max_tokens, include_omitted: true,
  });
  const rows = [
    ...win.messages.map((m) => ({ m, in: true })),
    ...(win.omitted || []).map((m) => ({ m, in: false })),
  ].sort((a, b) => a.m.seq - b.m.seq);
  const jobBox = h("div", { class: "job-box", "aria-live": "polite" });
  const jobs = h("div", {}, await pastJobs(id));
  const refreshJobs = async () => replace(jobs, await pastJobs(id));
  root.append(
    h("h1", {}, "Session ", h("span", { class: "subject-id" }, id)),
    form,
    meter(win),
    rows.length
      ? h("ol", { class: "messages", "aria-label": "Window messages in time order" },
          rows.map((r) => messageRow(r.m, r.in)))
      : h("p", { class: "empty" }, "The window is empty (an unknown or expired session)."),
    h("section", { class: "card" }, closeForm(id, jobBox, refreshJobs), jobBox),
    h("section", { "aria-labelledby": "jobs-h" }, h("h2", { id: "jobs-h" }, "Extraction jobs of this session"),
      jobs),
  );
}

export async function render(root, { arg, params }) {
  const main = h("div", { class: "main-col" });
  root.append(h("div", { class: "split" }, sessionList(arg), main));
  if (!arg) {
    main.append(h("h1", {}, "Working memory"),
      h("p", {}, "Pick a session to see its window against a token budget and close its task."));
    return;
  }
  main.append(loading());
  const content = h("div", {});
  await sessionDetail(content, arg, params);
  replace(main, content);
}
