// Health at a glance: units per type and status and jobs by state of this namespace
// (GET /stats), datastores (GET /ready), and request latency quantiles of this process
// from the exported histograms (GET /metrics).

import { call, get } from "../api.js";
import { JOB_STATES, STATUS_FILTERS, TYPES } from "../config.js";
import { errorBox, h } from "../dom.js";
import { buckets, parse, quantile } from "../metrics.js";
import { unitsHash } from "./units.js";

const HISTOGRAM = "hindsight_http_request_duration_seconds";
const ROUTES = [
  { route: "/recall", method: "POST", label: "Recall" },
  { route: "/store", method: "POST", label: "Store" },
  { route: "/working_memory/{session_id}", method: "GET", label: "Window" },
];

const ms = (seconds) => (seconds === null ? "—" : `${(seconds * 1000).toFixed(1)} ms`);

function unitTable(stats) {
  const statuses = [
    ...STATUS_FILTERS.filter((s) => s.param === "status").map((s) => s.value),
    ...Object.values(stats.units).flatMap(Object.keys),
  ].filter((s, i, all) => all.indexOf(s) === i);
  const types = [...TYPES, ...Object.keys(stats.units)].filter((t, i, all) => all.indexOf(t) === i);
  const cell = (type, status) => {
    const n = stats.units[type]?.[status] || 0;
    return h("td", { class: "num" }, n ? h("a", { href: unitsHash({ types: type, status }) }, String(n)) : "0");
  };
  return [h("h2", { id: "units-h" }, `Units per type and status (${stats.total_units} in all)`),
    h("div", { class: "table-wrap" }, h(
    "table",
    { class: "grid", "aria-labelledby": "units-h" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Type"),
      statuses.map((s) => h("th", { scope: "col", class: "num" }, s)))),
    h("tbody", {}, types.map((t) => h("tr", {}, h("th", { scope: "row" }, t), statuses.map((s) => cell(t, s))))),
  ))];
}

function jobList(stats) {
  return h(
    "dl",
    { class: "tiles", "aria-label": "Extraction jobs by state" },
    JOB_STATES.map((s) => h("div", { class: `tile job-${s}${stats.jobs[s] ? " nonzero" : ""}` },
      h("dt", {}, s), h("dd", {}, stats.jobs[s] ?? 0))),
  );
}

async function latency() {
  let text;
  try {
    text = await (await call("GET", "/metrics", { raw: true })).text();
  } catch (error) {
    return errorBox(error);
  }
  const samples = parse(text);
  return [h("h2", { id: "latency-h" }, "Request latency"),
    h("p", { class: "hint" }, "Of this process since it started, all namespaces; interpolated in "
      + "the histogram buckets of /metrics as PromQL's histogram_quantile() does."),
    h("div", { class: "table-wrap" }, h(
    "table",
    { class: "grid latency", "aria-labelledby": "latency-h" },
    h("thead", {}, h("tr", {}, ["Route", "Requests", "p50", "p95"].map((c, i) =>
      h("th", { scope: "col", class: i ? "num" : null }, c)))),
    h(
      "tbody",
      {},
      ROUTES.map(({ route, method, label }) => {
        const b = buckets(samples, HISTOGRAM, { route, method });
        const count = b.length ? b.at(-1)[1] : 0;
        return h("tr", { dataset: { route } },
          h("th", { scope: "row" }, label, h("code", { class: "route" }, `${method} ${route}`)),
          h("td", { class: "num" }, String(count)),
          h("td", { class: "num", dataset: { q: "p50" } }, ms(quantile(0.5, b))),
          h("td", { class: "num", dataset: { q: "p95" } }, ms(quantile(0.95, b))));
      }),
    ),
  ))];
}

async function readiness() {
  try {
    const answer = await fetch("/ready", { cache: "no-store" }).then((r) => r.json());
    return h("ul", { class: "checks-list" }, Object.entries(answer.checks).map(([k, v]) =>
      h("li", {}, h("strong", {}, k), " ", v)));
  } catch (error) {
    return errorBox(error);
  }
}

export async function render(root) {
  const [stats, ready, lat] = await Promise.all([get("/stats"), readiness(), latency()]);
  root.append(
    h("h1", {}, "Health"),
    h("div", { class: "health" },
      h("section", { class: "card wide" }, unitTable(stats)),
      h("section", { class: "card" }, h("h2", {}, "Extraction jobs"), jobList(stats)),
      h("section", { class: "card" }, h("h2", {}, "Pair reviews"),
        h("p", { class: "tile-line" }, h("a", { href: "#/reviews", dataset: { openReviews: String(stats.open_reviews) } },
          `${stats.open_reviews} open`))),
      h("section", { class: "card" }, h("h2", {}, "Datastores"), ready),
      h("section", { class: "card wide" }, lat)),
  );
}
