// What the console offers, in one place. Each list drives its form controls, table columns
// and request parameters: a new filter value or recall option is one line here.

// Memory-unit types (GET /memories `types`, POST /recall `types`).
export const TYPES = ["fact", "preference", "constraint", "action", "result", "event"];

// Status filter of the unit list (GET /memories `status`, repeated; `review=pending`: units
// whose pair decision is still open). `param` is the query parameter; `value` is what it sends.
export const STATUS_FILTERS = [
  { value: "active", label: "Active", param: "status", checked: true },
  { value: "superseded", label: "Superseded", param: "status" },
  { value: "merged", label: "Merged", param: "status" },
  { value: "archived", label: "Archived", param: "status" },
  { value: "invalid", label: "Invalid", param: "status" },
  { value: "pending", label: "Pending review", param: "review" },
];

// Named time windows (GET /memories and POST /recall `time_range`).
export const TIME_RANGES = [
  { value: "", label: "Any time" },
  { value: "last_24_hours", label: "Last 24 hours" },
  { value: "last_7_days", label: "Last 7 days" },
  { value: "last_30_days", label: "Last 30 days" },
  { value: "custom", label: "Between…" },
];

// Subject kinds (GET /subjects `kind`) and the parameter each filters the unit list by.
export const SUBJECT_KINDS = [
  { value: "user", label: "User", param: "user_id" },
  { value: "agent", label: "Agent", param: "agent_id" },
  { value: "session", label: "Session", param: "session_id" },
];

// Recall signals in drawing order, each with its bar colour (CSS custom property) and label.
// The colours pass 3:1 against the page background; each segment also carries its name.
export const SIGNALS = [
  { name: "semantic", label: "Semantic" },
  { name: "keyword", label: "Keyword" },
  { name: "entity", label: "Entity" },
  { name: "context", label: "Context" },
  { name: "recency", label: "Recency" },
  { name: "confidence", label: "Confidence" },
  { name: "time", label: "Time" },
  { name: "answer_type", label: "Answer type" },
];

// Extra POST /recall options shown in the playground. kind: "bool" (a checkbox, sent only
// when ticked — or, with `off`, sent as that value when not ticked), "select" (choices; ""
// sends nothing) or "number".
export const RECALL_OPTIONS = [
  {
    name: "profile",
    kind: "select",
    label: "Profile",
    choices: ["long_term", "short_term"],
    value: "long_term",
  },
  { name: "min_score", kind: "number", label: "Min score", step: "0.01", min: "0" },
  {
    name: "min_relevance", kind: "number", label: "Min relevance (0..1)", step: "0.05", min: "0",
  },
  { name: "as_of", kind: "text", label: "As of (ISO 8601 with offset)" },
  { name: "timezone", kind: "text", label: "Time zone (IANA)" },
  { name: "include_superseded", kind: "bool", label: "Include superseded" },
  { name: "include_archived", kind: "bool", label: "Include archived" },
  { name: "record_access", kind: "bool", label: "Count as an access (extends TTLs)", off: false },
  {
    name: "rerank",
    kind: "select",
    label: "Rerank",
    choices: [{ value: "", label: "server default" }, "none", "llm"],
    value: "",
  },
];

// Correction form (PATCH /memories/{id}): statuses a correction may set.
export const PATCH_STATUSES = ["active", "archived", "invalid"];

// Extraction job states, in the order the health view lists them.
export const JOB_STATES = ["queued", "running", "retrying", "succeeded", "failed", "cancelled"];

// Rows per page of the unit list (GET /memories `limit`, 1..200).
export const PAGE_SIZE = 25;
