// The entity graph: a user's entities (GET /entities: most recently seen first, keyset
// pages, or those a question names) and one entity's profile (GET /entities/{name}: its
// aliases, units in time order, neighbours by weight). The state lives in the URL hash.

import { get, query } from "../api.js";
import { errorBox, field, h, loading, replace, time } from "../dom.js";
import { statusBadge } from "./units.js";
import { subjectList } from "./subjects.js";

// Cursors of the pages before the current one, per filter set (Previous page pops one).
const back = new Map();

export function entitiesHash(params) {
  return `#/entities${query(params)}`;
}

export function entityHash(name, params) {
  return `#/entity/${encodeURIComponent(name)}${query(params)}`;
}

function scope(params) {
  return { user_id: params.user, agent_id: params.agent, session_id: params.session };
}

function picker(params) {
  return h(
    "aside",
    { class: "picker", "aria-label": "Users" },
    h("h2", {}, "Users"),
    subjectList({
      kind: "user",
      label: "User",
      current: params.user,
      href: (s) => entitiesHash({ user: s.id }),
      count: (s) => `${s.active_units}`,
    }),
  );
}

function filters(params) {
  const ask = h("input", { type: "search", name: "q", value: params.q || "",
    placeholder: "what do we know about Caroline?", autocomplete: "off" });
  const agent = h("input", { name: "agent", value: params.agent || "" });
  const session = h("input", { name: "session", value: params.session || "" });
  const form = h(
    "form",
    { class: "filters", "aria-label": "Entity filters" },
    field("Ask about", ask, "a name or a question naming it"),
    h("div", { class: "row" }, field("Agent", agent), field("Session", session)),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Show")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = entitiesHash({
      user: params.user,
      q: ask.value.trim(),
      agent: agent.value.trim(),
      session: session.value.trim(),
    });
  });
  return form;
}

async function table(params, body) {
  const key = JSON.stringify({ ...params, cursor: undefined });
  const stack = back.get(key) || [];
  if (!params.cursor) stack.length = 0;
  back.set(key, stack);
  replace(body, loading());
  let page;
  try {
    page = await get("/entities", {
      ...scope(params),
      mentioned_in: params.q || undefined,
      cursor: params.cursor,
      limit: 50,
    });
  } catch (error) {
    replace(body, errorBox(error));
    return;
  }
  const link = (e) => entityHash(e.name, { user: params.user, agent: params.agent,
    session: params.session });
  const rows = page.entities.map((e) =>
    h("tr", {},
      h("td", { "data-label": "Entity" }, h("a", { href: link(e), class: "entity-name" }, e.name)),
      h("td", { "data-label": "Units", class: "num" }, String(e.unit_count)),
      h("td", { "data-label": "Last seen" }, time(e.last_seen))));
  const nav = h("nav", { class: "pager", "aria-label": "Pages" });
  if (params.cursor) {
    nav.append(h("a", { class: "button secondary", href: entitiesHash({ ...params,
      cursor: stack.at(-1) }), onclick: () => stack.pop() }, "← Previous page"));
  }
  if (page.next_cursor) {
    nav.append(h("a", { class: "button secondary", href: entitiesHash({ ...params,
      cursor: page.next_cursor }), onclick: () => stack.push(params.cursor) }, "Next page →"));
  }
  replace(
    body,
    rows.length
      ? h("table", { class: "entities" },
          h("caption", { class: "sr-only" }, "Entities, most recently seen first"),
          h("thead", {}, h("tr", {}, ["Entity", "Units", "Last seen"]
            .map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, rows))
      : h("p", { class: "empty" }, params.q ? "The question names no known entity."
        : "No entities yet: units name them in their entities."),
    nav,
  );
}

async function profile(root, name, params) {
  const body = h("div", {}, loading());
  root.append(
    h("p", {}, h("a", { href: entitiesHash({ user: params.user, agent: params.agent,
      session: params.session }) }, "← All entities")),
    body,
  );
  let p;
  try {
    p = await get(`/entities/${encodeURIComponent(name)}`, { ...scope(params), limit: 100 });
  } catch (error) {
    replace(body, errorBox(error));
    return;
  }
  const units = p.units.map((u) =>
    h("tr", {},
      h("td", { "data-label": "Time anchor" }, time(u.occurred_at)),
      h("td", { "data-label": "Value" },
        h("a", { href: `#/unit/${u.id}`, class: "value", title: u.id }, u.value)),
      h("td", { "data-label": "Type" }, u.type),
      h("td", { "data-label": "Status" }, statusBadge(u.status))));
  const neighbours = p.neighbours.map((n) =>
    h("li", {}, h("a", { href: entityHash(n.name, params) }, n.name),
      h("span", { class: "count", title: "units naming both" }, ` ×${n.weight}`)));
  replace(
    body,
    h("h1", { class: "entity-name" }, p.name),
    p.aliases.length
      ? h("p", { class: "aliases" }, "Also called ", p.aliases.join(", "))
      : null,
    h("p", { class: "muted", role: "status" },
      `${p.unit_count} active unit${p.unit_count === 1 ? "" : "s"}; first seen `,
      time(p.first_seen), ", last seen ", time(p.last_seen)),
    h("h2", { id: "neighbours-h" }, "Named together with"),
    neighbours.length
      ? h("ul", { class: "chips neighbours", "aria-labelledby": "neighbours-h" }, neighbours)
      : h("p", { class: "muted" }, "Nothing else yet."),
    h("h2", { id: "entity-units-h" }, "Units, in time order"),
    h("table", { class: "units", "aria-labelledby": "entity-units-h" },
      h("thead", {}, h("tr", {}, ["Time anchor", "Value", "Type", "Status"]
        .map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, units)),
  );
}

export async function render(root, { view, arg, params }) {
  if (view === "entity") {
    await profile(root, arg, params);
    return;
  }
  const main = h("div", { class: "main-col" });
  root.append(h("div", { class: "split" }, picker(params), main));
  if (!params.user) {
    main.append(h("h1", {}, "Entities"), h("p", { class: "empty" }, "Pick a user."));
    return;
  }
  const body = h("div", { class: "table-wrap", dataset: { cursor: params.cursor || "" } });
  main.append(h("h1", {}, "Entities of ", h("span", { class: "subject-id" }, params.user)),
    filters(params), body);
  await table(params, body);
}
