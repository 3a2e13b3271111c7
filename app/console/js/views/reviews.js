// The review list: pairs of units the write path could not tell apart (GET /reviews), each
// decided with a button — merge, supersede, keep both (POST /reviews/{id}).

import { get, post } from "../api.js";
import { errorBox, fmt, h, time } from "../dom.js";

export const DECISIONS = [
  { action: "merge", label: "Merge", hint: "Both say the same: the newer unit goes into the existing one." },
  { action: "supersede", label: "Supersede", hint: "The newer unit replaces the existing one." },
  { action: "keep_both", label: "Keep both", hint: "Two facts: both stay active." },
];

const unitCell = (unit) => (unit
  ? h("a", { href: `#/unit/${unit.id}`, title: unit.id }, unit.value)
  : h("span", { class: "muted" }, "(forgotten)"));

// One open pair with its buttons; `done(review)` after a decision.
export function reviewItem(review, { toast, done }) {
  const buttons = DECISIONS.filter((d) => d.action !== "merge" || review.merge_allowed).map((d) =>
    h("button", {
      type: "button",
      title: d.hint,
      dataset: { action: d.action },
      onclick: async (event) => {
        event.target.disabled = true;
        try {
          const answer = await post(`/reviews/${review.id}`, { action: d.action });
          toast(`Pair decided: ${answer.review.decision}`);
          done(answer.review);
        } catch (error) {
          event.target.after(errorBox(error));
          event.target.disabled = false;
        }
      },
    }, d.label));
  return h("li", { class: "review", dataset: { review: review.id } },
    h("div", {}, h("strong", {}, "Newer: "), unitCell(review.unit)),
    h("div", {}, h("strong", {}, "Existing: "), unitCell(review.candidate)),
    h("small", { class: "muted" },
      `${review.kind} · ${review.reason} · cosine ${fmt(review.cosine, 3)} · opened `,
      time(review.created_at)),
    review.status === "pending" ? h("div", { class: "actions" }, buttons) : null);
}

export async function render(root, { params }, { toast }) {
  const filters = { status: "open", limit: 50 };
  if (params.user_id) filters.user_id = params.user_id;
  if (params.kind) filters.kind = params.kind;
  if (params.cursor) filters.cursor = params.cursor;
  const page = await get("/reviews", filters);
  const list = h("ul", { class: "reviews", "aria-label": "Open pair reviews, newest first" });
  for (const review of page.reviews) {
    const item = reviewItem(review, { toast, done: () => item.remove() });
    list.append(item);
  }
  const next = page.next_cursor
    ? h("a", { href: `#/reviews?${new URLSearchParams({ ...params, cursor: page.next_cursor })}` }, "Next page")
    : null;
  root.append(
    h("h1", {}, "Reviews"),
    h("p", { class: "hint" }, "Pairs of units Hindsight could not tell apart: the same fact, a "
      + "newer value, or two facts? Unanswered ones are closed as keep both after "
      + "LIFECYCLE__REVIEW_MAX_AGE_DAYS."),
    page.reviews.length ? list : h("p", { class: "muted" }, "No open reviews."),
    next,
  );
}
