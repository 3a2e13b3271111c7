// Building the page from data without ever parsing it as HTML: every string becomes a text
// node, so stored memory content cannot inject markup.

// h("a", {href: "#/x", class: "btn"}, "text", child, [more]) → an element.
// Attributes: `on<event>` functions become listeners; `dataset` and `style` objects;
// true/false/null toggle boolean attributes.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(el.dataset, value);
    } else if (name === "style") {
      // Through the CSSOM: the Content-Security-Policy forbids inline style attributes.
      Object.assign(el.style, value);
    } else if (name === "value" && "value" in el) {
      el.value = value;
    } else if (name === "checked" || name === "selected") {
      el[name] = Boolean(value);
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : textOf(String(child)));
  }
}

// Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): stored values keep
// them (they are content), but shown raw a U+202E turns "gnp.exe" into "exe.png" and can
// reorder the page around the value. Each is shown as a visible mark instead, and a string
// holding one is isolated in a <bdi>, so the text around it keeps its order.
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const BIDI_CONTROLS = /([\u202A-\u202E\u2066-\u2069])/;
const BIDI_NAMES = {
  "\u202A": "LEFT-TO-RIGHT EMBEDDING",
  "\u202B": "RIGHT-TO-LEFT EMBEDDING",
  "\u202C": "POP DIRECTIONAL FORMATTING",
  "\u202D": "LEFT-TO-RIGHT OVERRIDE",
  "\u202E": "RIGHT-TO-LEFT OVERRIDE",
  "\u2066": "LEFT-TO-RIGHT ISOLATE",
  "\u2067": "RIGHT-TO-LEFT ISOLATE",
  "\u2068": "FIRST STRONG ISOLATE",
  "\u2069": "POP DIRECTIONAL ISOLATE",
};

// A string as a node: a text node, or a <bdi> with each bidi control shown as a mark.
export function textOf(text) {
  if (!BIDI_CONTROL.test(text)) return document.createTextNode(text);
  const out = document.createElement("bdi");
  out.className = "has-controls";
  for (const part of text.split(BIDI_CONTROLS)) {
    if (!part) continue;
    if (BIDI_CONTROL.test(part)) {
      const code = `U+${part.codePointAt(0).toString(16).toUpperCase()}`;
      const mark = document.createElement("span");
      mark.className = "control";
      mark.title = `${code} ${BIDI_NAMES[part]} (a bidi control in the stored text)`;
      mark.textContent = `⟨${code}⟩`;
      out.append(mark);
    } else {
      out.append(document.createTextNode(part));
    }
  }
  return out;
}

// Replace the children of `el`.
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// A labelled form control: <div class="field"><label for=id>…</label>control</div>.
let fieldSeq = 0;
export function field(label, control, hint) {
  const id = control.id || `f${++fieldSeq}`;
  control.id = id;
  const hintEl = hint ? h("small", { id: `${id}-hint`, class: "hint" }, hint) : null;
  if (hintEl) control.setAttribute("aria-describedby", hintEl.id);
  return h("div", { class: "field" }, h("label", { for: id }, label), control, hintEl);
}

// A list of checkboxes in a fieldset with a legend.
export function checkboxes(legend, name, options, checked) {
  return h(
    "fieldset",
    { class: "checks" },
    h("legend", {}, legend),
    options.map((o) =>
      h(
        "label",
        { class: "check" },
        h("input", {
          type: "checkbox",
          name,
          value: o.value,
          checked: checked ? checked.includes(o.value) : o.checked,
        }),
        " ",
        o.label,
      ),
    ),
  );
}

export function select(name, choices, value) {
  return h(
    "select",
    { name },
    choices.map((c) => {
      const v = typeof c === "string" ? c : c.value;
      const label = typeof c === "string" ? c : c.label;
      return h("option", { value: v, selected: v === value }, label);
    }),
  );
}

// Values of the named checkboxes that are ticked.
export function checkedValues(form, name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);
}

// "2024-05-03 14:02 UTC" style, in the browser's zone, or "—".
export function when(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  });
}

export function time(iso) {
  return iso ? h("time", { datetime: iso, title: iso }, when(iso)) : "—";
}

// A <datetime-local> value (local wall time) → ISO 8601 with the browser's offset, or "".
export function localToIso(value) {
  if (!value) return "";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

export const fmt = (n, digits = 3) => (n === null || n === undefined ? "—" : n.toFixed(digits));

// An error answer shown in place (role=alert), with the API's code and detail.
export function errorBox(error) {
  const code = error.code ? h("code", {}, error.code) : null;
  return h("div", { class: "error", role: "alert" }, code, code ? " " : "", error.message);
}

export function loading(label = "Loading…") {
  return h("p", { class: "muted", role: "status" }, label);
}

// The short id shown in tables (the full one in the title and the link).
export const shortId = (id) => id.slice(-12);
