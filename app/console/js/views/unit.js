// A unit's story: what it says, where it came from (raw_ref), how often recall returned it,
// its supersede chain, consolidation links and conflicts; correct it (PATCH) or forget it
// (DELETE, with the receipt).

import { del, get, patch } from "../api.js";
import { PATCH_STATUSES, TYPES } from "../config.js";
import { errorBox, field, fmt, h, loading, replace, select, shortId, time } from "../dom.js";
import { reviewItem } from "./reviews.js";
import { statusBadge, unitsHash } from "./units.js";

function unitLink(unit, current) {
  return h(
    "a",
    { href: `#/unit/${unit.id}`, "aria-current": current ? "true" : null, title: unit.id },
    unit.value,
  );
}

function facts(unit) {
  const rows = [
    ["Type", unit.type],
    ["Status", statusBadge(unit.status)],
    ["User", unit.user_id],
    ["Agent", unit.agent_id || "—"],
    ["Session", unit.session_id || "—"],
    ["Task", unit.task_id || "—"],
    ["Trigger scenario", unit.query || "—"],
    ["Entities", unit.entities.length ? unit.entities.join(", ") : "—"],
    ["Confidence", fmt(unit.confidence, 2)],
    ["Source", unit.source],
    ["Time anchor", time(unit.occurred_at)],
    ["Stored", time(unit.created_at)],
    ["Last confirmed", time(unit.last_confirmed_at)],
    ["Recalled", `${unit.access_count === 1 ? "once" : `${unit.access_count} times`} in the last ${unit.access_window_days} days`],
    ["Last recalled", time(unit.last_accessed_at)],
    ["Merged restatements", unit.merge_count ?? "—"],
    ["Expires", time(unit.expires_at)],
    ["Embedding model", unit.embedding_model],
    ["Id", h("code", {}, unit.id)],
  ];
  return h(
    "dl",
    { class: "facts" },
    rows.map(([k, v]) => [h("dt", {}, k), h("dd", { dataset: { fact: k } }, v)]),
  );
}

function chain(unit, history) {
  const byId = new Map(history.memories.map((m) => [m.id, m]));
  const items = history.memories.map((m) =>
    h(
      "li",
      { class: m.id === unit.id ? "current" : "" },
      unitLink(m, m.id === unit.id),
      " ",
      statusBadge(m.status),
      h("small", { class: "muted" }, " stored ", time(m.created_at)),
      m.superseded_by && byId.has(m.superseded_by)
        ? h("small", { class: "muted" }, ` → superseded by …${shortId(m.superseded_by)}`)
        : null,
    ),
  );
  return h(
    "section",
    { "aria-labelledby": "chain-h", class: "card" },
    h("h2", { id: "chain-h" }, "Supersede chain"),
    history.memories.length > 1
      ? h("ol", { class: "chain", "aria-label": "Versions, oldest first" }, items)
      : h("p", { class: "muted" }, "No other versions: this unit has not replaced or been replaced by another."),
  );
}

function links(unit, history) {
  if (!history.links.length) return null;
  return h(
    "section",
    { "aria-labelledby": "links-h", class: "card" },
    h("h2", { id: "links-h" }, "Consolidation"),
    h(
      "ul",
      {},
      history.links.map((l) =>
        h(
          "li",
          {},
          l.target_id === unit.id ? "Written from " : `Consolidated (${l.kind}) into `,
          h("a", { href: `#/unit/${l.target_id === unit.id ? l.source_id : l.target_id}` },
            `…${shortId(l.target_id === unit.id ? l.source_id : l.target_id)}`),
          ` (${l.kind}, `,
          time(l.created_at),
          ")",
        ),
      ),
    ),
  );
}

// Conflicts: units flagged as contradicting this one, and the open pair reviews naming it
// (GET /reviews?memory_id=…), each with its decision buttons.
async function conflicts(unit, toast) {
  const box = h(
    "section",
    { "aria-labelledby": "conflicts-h", class: "card" },
    h("h2", { id: "conflicts-h" }, "Conflicts"),
  );
  let open = [];
  try {
    open = (await get("/reviews", { memory_id: unit.id, status: "open" })).reviews;
  } catch (error) {
    box.append(errorBox(error));
  }
  if (open.length) {
    const list = h("ul", { class: "reviews", "aria-label": "Open reviews of this unit" });
    for (const review of open) {
      const item = reviewItem(review, { toast, done: () => { location.hash = `#/unit/${unit.id}?decided=${Date.now()}`; } });
      list.append(item);
    }
    box.append(h("h3", {}, `Open reviews (${open.length})`), list);
  }
  if (!unit.conflicts_with.length) {
    if (!open.length) box.append(h("p", { class: "muted" }, "No known contradictions and no open reviews."));
    return box;
  }
  const list = h("ul", {});
  box.append(list);
  for (const id of unit.conflicts_with) {
    try {
      const other = await get(`/memories/${id}`);
      list.append(h("li", {}, unitLink(other), " ", statusBadge(other.status)));
    } catch (error) {
      list.append(h("li", {}, h("code", {}, id), " ", error.status === 404 ? "(forgotten)" : error.message));
    }
  }
  return box;
}

function sources(unit) {
  return h(
    "section",
    { "aria-labelledby": "sources-h", class: "card" },
    h("h2", { id: "sources-h" }, "Sources"),
    unit.raw_ref.length
      ? h("ul", { class: "sources" }, unit.raw_ref.map((r) => h("li", {}, h("code", {}, r))))
      : h("p", { class: "muted" }, "No raw_ref recorded."),
    Object.keys(unit.metadata).length
      ? h("details", {}, h("summary", {}, "Metadata"), h("pre", {}, JSON.stringify(unit.metadata, null, 2)))
      : null,
  );
}

// Only the fields that changed go into the PATCH body.
function changes(form, unit) {
  const body = {};
  const value = form.value.value.trim();
  if (value && value !== unit.value) body.value = value;
  const scenario = form.scenario.value.trim();
  if (scenario !== (unit.query || "")) body.query = scenario || null;
  const entities = form.entities.value.split(",").map((e) => e.trim()).filter(Boolean);
  if (entities.join("\u0000") !== unit.entities.join("\u0000")) body.entities = entities;
  const confidence = Number(form.confidence.value);
  if (form.confidence.value !== "" && confidence !== unit.confidence) body.confidence = confidence;
  if (form.type.value !== unit.type) body.type = form.type.value;
  if (form.status.value && form.status.value !== unit.status) body.status = form.status.value;
  return body;
}

function correctForm(unit, result) {
  const form = h(
    "form",
    { class: "correct", "aria-labelledby": "correct-h" },
    h("h2", { id: "correct-h" }, "Correct"),
    field("Value", h("textarea", { name: "value", rows: 3, required: true }, unit.value)),
    field("Trigger scenario", h("input", { name: "scenario", value: unit.query || "" }), "empty clears it"),
    field("Entities", h("input", { name: "entities", value: unit.entities.join(", ") }), "comma separated"),
    h(
      "div",
      { class: "row" },
      field("Confidence", h("input", {
        name: "confidence", type: "number", min: "0", max: "1", step: "0.01", value: unit.confidence,
      })),
      field("Type", select("type", TYPES, unit.type)),
      field("Status", select("status", [{ value: "", label: `(${unit.status})` }, ...PATCH_STATUSES], "")),
    ),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Save correction")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = changes(form, unit);
    if (!Object.keys(body).length) {
      replace(result, h("p", { role: "status" }, "Nothing changed."));
      return;
    }
    try {
      const answer = await patch(`/memories/${unit.id}`, body);
      if (answer.outcome === "merged") {
        replace(result, h("p", { role: "status" }, "The new value restates another unit, which absorbed it: ",
          h("a", { href: `#/unit/${answer.id}` }, "open the survivor"), "."));
      } else {
        location.hash = `#/unit/${answer.id}?saved=1`;
      }
    } catch (error) {
      replace(result, errorBox(error));
    }
  });
  return form;
}

function receipt(answer) {
  const counts = Object.entries(answer.removed).filter(([, n]) => n > 0);
  return h(
    "section",
    { class: "receipt card", role: "status", "aria-labelledby": "receipt-h" },
    h("h2", { id: "receipt-h" }, "Forgotten"),
    h("p", {}, `Deleted for real in ${fmt(answer.took_ms, 1)} ms. Removed:`),
    h("dl", { class: "facts" }, counts.map(([k, n]) => [h("dt", {}, k.replaceAll("_", " ")), h("dd", {}, n)])),
    h("p", {}, h("a", { href: "#/units" }, "Back to the units")),
  );
}

function forgetBox(unit, root) {
  const confirm = h("div", { class: "confirm", hidden: true },
    h("p", {}, "This deletes the unit, its vectors, keyword entry, access log and links. It cannot be undone."),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "danger", id: "forget-confirm" }, "Forget for real"),
      h("button", { type: "button", class: "secondary", id: "forget-cancel" }, "Cancel")));
  const start = h("button", { type: "button", class: "danger secondary", id: "forget" }, "Forget…");
  start.addEventListener("click", () => {
    confirm.hidden = false;
    confirm.querySelector("#forget-confirm").focus();
  });
  confirm.querySelector("#forget-cancel").addEventListener("click", () => {
    confirm.hidden = true;
    start.focus();
  });
  confirm.querySelector("#forget-confirm").addEventListener("click", async () => {
    try {
      const answer = await del(`/memories/${unit.id}`);
      replace(root, h("h1", {}, "Memory unit"), receipt(answer));
    } catch (error) {
      confirm.append(errorBox(error));
    }
  });
  return h("section", { class: "card forget", "aria-labelledby": "forget-h" },
    h("h2", { id: "forget-h" }, "Forget"), start, confirm);
}

export async function render(root, { arg, params }, { toast }) {
  root.append(loading());
  const [unit, history] = await Promise.all([
    get(`/memories/${arg}`),
    get(`/memories/${arg}/history`),
  ]);
  if (params.saved) toast("Correction saved");
  const result = h("div", { class: "result" });
  replace(
    root,
    h("p", { class: "crumbs" }, h("a", { href: unitsHash({ kind: "user", subject: unit.user_id }) },
      `← ${unit.user_id}'s units`)),
    h("h1", { class: "unit-value" }, unit.value),
    h("div", { class: "split-2" },
      h("div", {}, facts(unit), sources(unit)),
      h("div", {}, chain(unit, history), links(unit, history), await conflicts(unit, toast),
        correctForm(unit, result), result, forgetBox(unit, root))),
  );
}
