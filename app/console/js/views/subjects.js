// A searchable, paged list of subjects of one kind (GET /subjects: prefix, keyset pages),
// shared by the unit list (users, agents, sessions) and the working-memory view (sessions).

import { get } from "../api.js";
import { errorBox, field, h, replace } from "../dom.js";

// kind: "user" | "agent" | "session"; current: the id shown as selected; href(subject) and
// count(subject): each entry's link and count text.
export function subjectList({ kind, label, current, href, count }) {
  const results = h("ul", { class: "subjects", "aria-label": `${label}s` });
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "More");
  const search = h("input", { type: "search", name: "prefix", placeholder: "starts with…",
    autocomplete: "off" });
  let cursor = null;

  async function load(reset) {
    if (reset) {
      cursor = null;
      replace(results, h("li", { class: "muted" }, "Loading…"));
    }
    try {
      const page = await get("/subjects", { kind, prefix: search.value.trim(), limit: 50, cursor });
      if (reset) results.replaceChildren();
      for (const s of page.subjects) {
        results.append(h("li", {}, h("a", { href: href(s), "aria-current": s.id === current ? "true" : null },
          h("span", { class: "subject-id" }, s.id), h("span", { class: "count" }, count(s)))));
      }
      if (!results.children.length) results.append(h("li", { class: "muted" }, "None yet."));
      cursor = page.next_cursor;
      more.hidden = !cursor;
    } catch (error) {
      replace(results, h("li", {}, errorBox(error)));
    }
  }
  search.addEventListener("input", () => {
    clearTimeout(search.timer);
    search.timer = setTimeout(() => load(true), 250);
  });
  more.addEventListener("click", () => load(false));
  load(true);
  return [field(`Find a ${label.toLowerCase()}`, search), results, more];
}
