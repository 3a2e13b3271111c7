// Recall playground: POST /recall with a query, a clock (`now`), filters and weights; each
// hit's score drawn as a stacked bar of the signals' weighted shares (weight × signal,
// with the weights the service applied, `weights` in the answer).

import { post } from "../api.js";
import { RECALL_OPTIONS, SIGNALS, TIME_RANGES, TYPES } from "../config.js";
import {
  checkboxes,
  checkedValues,
  errorBox,
  field,
  fmt,
  h,
  loading,
  localToIso,
  replace,
  select,
} from "../dom.js";
import { statusBadge } from "./units.js";

const list = (v) => (v === undefined ? [] : [].concat(v));

function optionControl(option, params) {
  const value = params[option.name] ?? option.value ?? "";
  if (option.kind === "bool") {
    return h("label", { class: "check" },
      h("input", { type: "checkbox", name: option.name, checked: value === "true" || value === true }),
      " ", option.label);
  }
  let control;
  if (option.kind === "select") control = select(option.name, option.choices, value);
  else if (option.kind === "text") control = h("input", { name: option.name, value });
  else control = h("input", { type: "number", name: option.name, value, step: option.step, min: option.min });
  return field(option.label, control);
}

function optionValue(form, option) {
  const el = form.elements[option.name];
  if (option.kind === "bool") return el.checked ? true : option.off;
  if (el.value.trim() === "") return undefined;
  if (option.kind === "text") return el.value.trim();
  return option.kind === "number" ? Number(el.value) : el.value;
}

// The request body of the form (only what was given).
function requestOf(form) {
  const body = { query: form.query.value.trim(), top_k: Number(form.top_k.value) || 5 };
  for (const name of ["user_id", "agent_id", "session_id"]) {
    const v = form[name].value.trim();
    if (v) body[name] = v;
  }
  const now = localToIso(form.now.value);
  if (now) body.now = now;
  const types = checkedValues(form, "types");
  if (types.length) body.types = types;
  const entities = form.entities.value.split(",").map((e) => e.trim()).filter(Boolean);
  if (entities.length) body.entities = entities;
  if (form.time_range.value && form.time_range.value !== "custom") body.time_range = form.time_range.value;
  const weights = {};
  for (const s of [...SIGNALS.map((x) => x.name), "recency_lambda"]) {
    const v = form[`w_${s}`].value;
    if (v !== "") weights[s] = Number(v);
  }
  if (Object.keys(weights).length) body.weights = weights;
  for (const option of RECALL_OPTIONS) {
    const v = optionValue(form, option);
    if (v !== undefined) body[option.name] = v;
  }
  return body;
}

// Per hit: each signal's weighted contribution and its share of the score.
export function shares(hit, weights) {
  const parts = SIGNALS.map((s) => ({
    ...s,
    signal: hit.scores[s.name] ?? 0,
    weight: weights[s.name] ?? 0,
  })).map((p) => ({ ...p, contribution: p.signal * p.weight }));
  const total = parts.reduce((sum, p) => sum + p.contribution, 0);
  return parts.map((p) => ({ ...p, share: total > 0 ? p.contribution / total : 0 }));
}

function bar(hit, parts, top) {
  const label = parts
    .filter((p) => p.share > 0)
    .map((p) => `${p.label} ${Math.round(p.share * 100)}%`)
    .join(", ");
  const width = top > 0 ? Math.max(2, (100 * hit.score) / top) : 0;
  // The diversity step's penalty, drawn hatched after the score it was taken from (capped
  // at the track's end).
  const penalty = hit.redundancy > 0 && top > 0
    ? Math.min((100 * hit.redundancy) / top, Math.max(0, 100 - width))
    : 0;
  return h(
    "div",
    { class: "bar-track" },
    h(
      "div",
      {
        class: "bar",
        role: "img",
        "aria-label": `score ${fmt(hit.score)}: ${label || "no signal"}`
          + (hit.redundancy > 0 ? `; less ${fmt(hit.redundancy)} for redundancy` : ""),
        style: { width: `${width}%` },
      },
      parts
        .filter((p) => p.share > 0)
        .map((p) =>
          h("span", {
            class: `seg sig-${p.name}`,
            style: { width: `${100 * p.share}%` },
            title: `${p.label}: ${fmt(p.signal)} × ${fmt(p.weight, 2)} = ${fmt(p.contribution)} (${Math.round(100 * p.share)}%)`,
            dataset: { signal: p.name, share: p.share.toFixed(4) },
          }),
        ),
    ),
    penalty > 0
      ? h("span", {
        class: "bar-redundancy",
        style: { width: `${penalty}%` },
        title: `redundancy: −${fmt(hit.redundancy)} (nearly repeats a better-placed hit)`,
        dataset: { redundancy: hit.redundancy.toFixed(4) },
      })
      : "",
  );
}

function breakdown(parts, hit, repeats) {
  return h(
    "details",
    { class: "breakdown" },
    h("summary", {}, "Signals"),
    h("div", { class: "table-wrap" }, h(
      "table",
      {},
      h("thead", {}, h("tr", {}, ["Signal", "Signal 0..1", "Weight", "Adds", "Share"].map((c) => h("th", { scope: "col" }, c)))),
      h(
        "tbody",
        {},
        parts.map((p) =>
          h("tr", { dataset: { signal: p.name } },
            h("th", { scope: "row" }, h("span", { class: `swatch sig-${p.name}`, "aria-hidden": "true" }), p.label),
            h("td", { class: "num" }, fmt(p.signal)),
            h("td", { class: "num" }, fmt(p.weight, 2)),
            h("td", { class: "num" }, fmt(p.contribution)),
            h("td", { class: "num" }, `${Math.round(100 * p.share)}%`)),
        ),
        hit.redundancy > 0
          ? h("tr", { class: "redundancy", dataset: { signal: "redundancy" } },
            h("th", { scope: "row" }, h("span", { class: "swatch bar-redundancy", "aria-hidden": "true" }),
              repeats ? `Redundancy (repeats #${repeats})` : "Redundancy"),
            h("td", { class: "num" }, ""),
            h("td", { class: "num" }, ""),
            h("td", { class: "num" }, `−${fmt(hit.redundancy)}`),
            h("td", { class: "num" }, ""))
          : "",
      ),
    )),
  );
}

function legend() {
  return h(
    "ul",
    { class: "legend", "aria-label": "Signals" },
    SIGNALS.map((s) => h("li", {}, h("span", { class: `swatch sig-${s.name}`, "aria-hidden": "true" }), s.label)),
  );
}

function results(answer) {
  const top = Math.max(0, ...answer.memories.map((m) => m.score));
  const w = answer.weights;
  const applied = SIGNALS.map((s) => `${s.label.toLowerCase()} ${fmt(w[s.name], 2)}`).join(" · ");
  return [
    h("p", { class: "muted", role: "status" },
      `${answer.memories.length} unit${answer.memories.length === 1 ? "" : "s"} in ${fmt(answer.took_ms, 1)} ms`,
      answer.degraded
        ? ` — degraded: ${answer.rerank?.reason || "the time budget cut work short"}`
        : "",
      answer.rerank ? ` · rerank ${answer.rerank.status} (${answer.rerank.candidates} candidates)` : "",
      h("br"), `weights: ${applied} · λ ${w.recency_lambda}/h`,
      answer.time_hint
        ? [h("br"), h("span", { class: "time-hint" },
          `time: “${answer.time_hint.phrase}” = ${answer.time_hint.start} … ${answer.time_hint.end} (${answer.time_hint.unit})`)]
        : "",
      answer.best_relevance != null
        ? [h("br"), h("span", { class: "best-relevance" },
          `best relevance ${fmt(answer.best_relevance)}${answer.best_relevance < 0.03 ? " — nothing relevant found" : ""}`)]
        : ""),
    legend(),
    h(
      "ol",
      { class: "hits" },
      answer.memories.map((hit) => {
        const parts = shares(hit, w);
        const repeats = hit.redundant_with
          ? answer.memories.findIndex((m) => m.id === hit.redundant_with) + 1 || null
          : null;
        return h(
          "li",
          { class: "hit", dataset: { id: hit.id } },
          h("div", { class: "hit-head" },
            h("a", { href: `#/unit/${hit.id}`, class: "value" }, hit.value),
            h("span", { class: "score" }, fmt(hit.score)),
            h("span", { class: "relevance", title: "relevance: 0..1, comparable across queries" },
              `relevance ${fmt(hit.relevance)}`)),
          h("div", { class: "hit-meta muted" }, hit.type, " · ", statusBadge(hit.status),
            hit.entities.length ? ` · ${hit.entities.join(", ")}` : "",
            hit.via ? ` · via ${hit.via}` : "",
            repeats ? ` · nearly repeats #${repeats}` : "",
            hit.rerank_position != null
              ? ` · placed by the rerank (hybrid rank ${hit.hybrid_rank})`
              : ""),
          bar(hit, parts, top),
          breakdown(parts, hit, repeats),
        );
      }),
    ),
  ];
}

function form(params) {
  const weightInputs = [...SIGNALS, { name: "recency_lambda", label: "Recency λ /h" }].map((s) =>
    field(s.label, h("input", {
      type: "number", name: `w_${s.name}`, step: "0.01", min: "0", max: "10",
      value: params[`w_${s.name}`] || "", placeholder: "default",
    })),
  );
  return h(
    "form",
    { class: "recall-form", "aria-label": "Recall" },
    field("Query", h("textarea", { name: "query", rows: 2, required: true, maxlength: 2000 }, params.query || "")),
    h("div", { class: "row" },
      field("User", h("input", { name: "user_id", value: params.user_id || "" })),
      field("Agent", h("input", { name: "agent_id", value: params.agent_id || "" })),
      field("Session", h("input", { name: "session_id", value: params.session_id || "" })),
      field("Top k", h("input", { type: "number", name: "top_k", min: "1", max: "100", value: params.top_k || "5" }))),
    h("p", { class: "hint" }, "Give at least one of user, agent and session."),
    h("details", { class: "more", open: params.open ? true : null },
      h("summary", {}, "Clock, filters, weights and options"),
      h("div", { class: "row" },
        field("Now", h("input", { type: "datetime-local", name: "now" }), "empty: the real clock"),
        field("Time anchor", select("time_range", TIME_RANGES.filter((t) => t.value !== "custom"), params.time_range || "")),
        field("Entities", h("input", { name: "entities", value: params.entities || "" }), "comma separated")),
      checkboxes("Type", "types", TYPES.map((t) => ({ value: t, label: t })), list(params.types)),
      h("fieldset", { class: "weights" }, h("legend", {}, "Weights (empty: the profile's)"), h("div", { class: "row" }, weightInputs)),
      h("div", { class: "row options" }, RECALL_OPTIONS.map((o) => optionControl(o, params)))),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Recall")),
  );
}

export async function render(root, { params }) {
  const out = h("div", { class: "recall-results" });
  const f = form(params);
  f.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = requestOf(f);
    // Keep the request in the address (shareable, survives a reload) without re-rendering.
    const state = { query: body.query, user_id: body.user_id, agent_id: body.agent_id,
      session_id: body.session_id, top_k: body.top_k };
    history.replaceState(null, "", `#/recall?${new URLSearchParams(
      Object.entries(state).filter(([, v]) => v !== undefined))}`);
    replace(out, loading("Recalling…"));
    try {
      replace(out, results(await post("/recall", body)));
    } catch (error) {
      replace(out, errorBox(error));
    }
  });
  root.append(h("h1", {}, "Recall playground"), f, out);
  if (params.query && (params.user_id || params.agent_id || params.session_id)) f.requestSubmit();
}
