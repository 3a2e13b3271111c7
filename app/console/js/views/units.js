// Subjects and units: pick a user, agent or session; units as a table with filters and
// keyset pagination (GET /subjects, GET /memories). The state lives in the URL hash.

import { get, query } from "../api.js";
import {
  PAGE_SIZE,
  STATUS_FILTERS,
  SUBJECT_KINDS,
  TIME_RANGES,
  TYPES,
} from "../config.js";
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
  time,
} from "../dom.js";
import { subjectList } from "./subjects.js";

const list = (v) => (v === undefined ? [] : [].concat(v));
// Cursors of the pages before the current one, per filter set (Previous page pops one).
const back = new Map();

function kindOf(params) {
  return SUBJECT_KINDS.find((k) => k.value === params.kind) || SUBJECT_KINDS[0];
}

export function unitsHash(params) {
  return `#/units${query(params)}`;
}

// The GET /memories parameters of the view's state.
function listParams(params) {
  const statuses = STATUS_FILTERS.filter((s) =>
    params.status === undefined ? s.checked : list(params.status).includes(s.value),
  );
  const limit = Number(params.limit) || PAGE_SIZE;
  const out = { limit, types: list(params.types), cursor: params.cursor };
  for (const s of statuses) out[s.param] = [...list(out[s.param]), s.value];
  if (params.subject) out[kindOf(params).param] = params.subject;
  if (params.entity) out.entities = params.entity.split(",").map((e) => e.trim()).filter(Boolean);
  if (params.time_range && params.time_range !== "custom") out.time_range = params.time_range;
  if (params.time_range === "custom") Object.assign(out, { since: params.since, until: params.until });
  return out;
}

function subjectPicker(params) {
  const kind = kindOf(params);
  const list = subjectList({
    kind: kind.value,
    label: kind.label,
    current: params.subject,
    href: (s) => unitsHash({ kind: kind.value, subject: s.id }),
    count: (s) => `${s.active_units}/${s.units}`,
  });
  const kinds = h(
    "div",
    { class: "segmented", role: "group", "aria-label": "Subject kind" },
    SUBJECT_KINDS.map((k) =>
      h(
        "a",
        { href: unitsHash({ kind: k.value }), "aria-current": k === kind ? "true" : null },
        k.label,
      ),
    ),
  );
  return h(
    "aside",
    { class: "picker", "aria-label": "Subjects" },
    h("h2", {}, "Subjects"),
    kinds,
    h("p", { class: "hint" }, "active / all units"),
    list,
    params.subject ? h("a", { href: unitsHash({ kind: kind.value }) }, "All subjects") : null,
  );
}

function filters(params) {
  const range = select("time_range", TIME_RANGES, params.time_range || "");
  const since = h("input", { type: "datetime-local", name: "since" });
  const until = h("input", { type: "datetime-local", name: "until" });
  const custom = h("div", { class: "row", hidden: range.value !== "custom" },
    field("Since", since), field("Until", until));
  range.addEventListener("change", () => {
    custom.hidden = range.value !== "custom";
  });
  const form = h(
    "form",
    { class: "filters", "aria-label": "Filters" },
    checkboxes("Type", "types", TYPES.map((t) => ({ value: t, label: t })), list(params.types)),
    checkboxes(
      "Status",
      "status",
      STATUS_FILTERS,
      params.status === undefined ? undefined : list(params.status),
    ),
    h(
      "div",
      { class: "row" },
      field("Entity", h("input", { name: "entity", value: params.entity || "" }), "comma separated"),
      field("Time anchor", range),
    ),
    custom,
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Apply filters")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const next = {
      kind: params.kind,
      subject: params.subject,
      types: checkedValues(form, "types"),
      status: checkedValues(form, "status"),
      entity: form.entity.value.trim(),
      time_range: range.value,
      limit: params.limit,
    };
    if (range.value === "custom") {
      next.since = localToIso(since.value);
      next.until = localToIso(until.value);
    }
    location.hash = unitsHash(next);
  });
  return form;
}

function entityChips(entities) {
  return entities.length
    ? h("ul", { class: "chips" }, entities.map((e) => h("li", {}, e)))
    : h("span", { class: "muted" }, "—");
}

export function statusBadge(status) {
  return h("span", { class: `badge status-${status}` }, status);
}

function row(unit) {
  return h(
    "tr",
    {},
    h("td", { "data-label": "Value" },
      h("a", { href: `#/unit/${unit.id}`, class: "value", title: unit.id }, unit.value)),
    h("td", { "data-label": "Type" }, unit.type),
    h("td", { "data-label": "Trigger" }, unit.query || h("span", { class: "muted" }, "—")),
    h("td", { "data-label": "Entities" }, entityChips(unit.entities)),
    h("td", { "data-label": "Confidence", class: "num" }, fmt(unit.confidence, 2)),
    h("td", { "data-label": "Time anchor" }, time(unit.occurred_at)),
    h("td", { "data-label": "Status" }, statusBadge(unit.status)),
  );
}

async function table(params, body) {
  const key = JSON.stringify({ ...params, cursor: undefined });
  const stack = back.get(key) || [];
  if (!params.cursor) stack.length = 0;
  back.set(key, stack);
  replace(body, loading());
  let page;
  try {
    page = await get("/memories", listParams(params));
  } catch (error) {
    replace(body, errorBox(error));
    return;
  }
  const rows = page.memories.map(row);
  const nav = h("nav", { class: "pager", "aria-label": "Pages" });
  if (params.cursor) {
    nav.append(
      h("a", { class: "button secondary", href: unitsHash({ ...params, cursor: stack.at(-1) }),
        onclick: () => stack.pop() }, "← Previous page"),
    );
  }
  if (page.next_cursor) {
    nav.append(
      h("a", { class: "button secondary", href: unitsHash({ ...params, cursor: page.next_cursor }),
        onclick: () => stack.push(params.cursor) }, "Next page →"),
    );
  }
  const count = page.next_cursor || params.cursor
    ? `${rows.length} units on this page`
    : `${rows.length} unit${rows.length === 1 ? "" : "s"}`;
  replace(
    body,
    h("p", { class: "muted", role: "status" }, count),
    rows.length
      ? h(
          "table",
          { class: "units" },
          h("caption", { class: "sr-only" }, "Memory units, newest first"),
          h("thead", {}, h("tr", {},
            ["Value", "Type", "Trigger scenario", "Entities", "Confidence", "Time anchor", "Status"]
              .map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, rows),
        )
      : h("p", { class: "empty" }, "No units match these filters."),
    nav,
  );
}

export async function render(root, { params }) {
  const kind = kindOf(params);
  const body = h("div", { class: "table-wrap", dataset: { cursor: params.cursor || "" } });
  const heading = params.subject
    ? [`${kind.label} `, h("span", { class: "subject-id" }, params.subject)]
    : "All units";
  root.append(
    h(
      "div",
      { class: "split" },
      subjectPicker(params),
      h("div", { class: "main-col" }, h("h1", {}, heading), filters(params), body),
    ),
  );
  await table(params, body);
}
