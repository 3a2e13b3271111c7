// The shell: hash routes → views, the API-key dialog, the namespace badge.

import { ApiError, apiKey, get, onUnauthorized } from "./api.js";
import { errorBox, h, replace } from "./dom.js";
import * as entities from "./views/entities.js";
import * as health from "./views/health.js";
import * as recall from "./views/recall.js";
import * as reviews from "./views/reviews.js";
import * as session from "./views/session.js";
import * as unit from "./views/unit.js";
import * as units from "./views/units.js";

// "#/unit/ID?x=1" → view "unit", arg "ID", params {x: "1"} (repeated names become arrays).
export function parseHash(hash) {
  const [path, search = ""] = hash.replace(/^#\/?/, "").split("?");
  const [view, ...rest] = path.split("/");
  const params = {};
  for (const [k, v] of new URLSearchParams(search)) {
    params[k] = k in params ? [].concat(params[k], v) : v;
  }
  return { view: view || "units", arg: rest.map(decodeURIComponent).join("/"), params };
}

const ROUTES = {
  units: { module: units, nav: "units", title: "Units" },
  unit: { module: unit, nav: "units", title: "Memory unit" },
  recall: { module: recall, nav: "recall", title: "Recall playground" },
  entities: { module: entities, nav: "entities", title: "Entities" },
  entity: { module: entities, nav: "entities", title: "Entity" },
  sessions: { module: session, nav: "sessions", title: "Working memory" },
  reviews: { module: reviews, nav: "reviews", title: "Reviews" },
  health: { module: health, nav: "health", title: "Health" },
};

const view = document.getElementById("view");
const dialog = document.getElementById("key-dialog");
const keyInput = document.getElementById("key-input");
const keyError = document.getElementById("key-error");
const badge = document.getElementById("namespace");

export function toast(message) {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove("show"), 4000);
}

async function render({ focus = true } = {}) {
  const route = parseHash(location.hash);
  const entry = ROUTES[route.view] || ROUTES.units;
  for (const a of document.querySelectorAll("nav a")) {
    if (a.dataset.view === entry.nav) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  document.title = `${entry.title} · Hindsight console`;
  const section = h("section", { class: `view view-${route.view}` });
  replace(view, section);
  try {
    await entry.module.render(section, route, { toast });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) console.error(error);
    section.append(errorBox(error));
  }
  if (focus) view.focus({ preventScroll: true });
}

// Which namespace the key opens (GET /stats answers it); null when the key is refused.
async function whoAmI() {
  try {
    const stats = await get("/stats");
    badge.replaceChildren("namespace ", h("strong", {}, stats.namespace));
    badge.title = apiKey.get() ? "API key in use (kept in this tab only)" : "No API key needed";
    return stats.namespace;
  } catch (error) {
    badge.textContent = error.status === 401 ? "no access" : "";
    return null;
  }
}

function askForKey(message) {
  keyError.hidden = !message;
  keyError.textContent = message || "";
  keyInput.value = "";
  if (!dialog.open) dialog.showModal();
  keyInput.focus();
}

onUnauthorized((error) => {
  if (dialog.open) return;
  const refused = error.code === "invalid_api_key";
  if (refused) apiKey.clear();
  askForKey(refused ? `The service refused the key: ${error.message}` : "");
});

document.getElementById("key-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const key = keyInput.value.trim();
  if (!key) return;
  const previous = apiKey.get();
  apiKey.set(key);
  try {
    await get("/stats");
  } catch (error) {
    if (previous) apiKey.set(previous);
    else apiKey.clear();
    keyError.hidden = false;
    keyError.textContent =
      error.status === 401 ? `The service refused this key: ${error.message}` : error.message;
    keyInput.select();
    return;
  }
  dialog.close();
  await whoAmI();
  toast("API key accepted");
  render();
});

document.getElementById("key-button").addEventListener("click", () => askForKey(""));
document.getElementById("key-cancel").addEventListener("click", () => dialog.close());
document.getElementById("key-forget").addEventListener("click", async () => {
  apiKey.clear();
  dialog.close();
  toast("API key forgotten");
  await whoAmI();
  render();
});

window.addEventListener("hashchange", () => render());

if (!location.hash) history.replaceState(null, "", "#/units");
whoAmI().then(() => render({ focus: false }));
