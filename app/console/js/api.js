// The one door to the REST API: same origin, the API key from sessionStorage, and every
// error answer (RFC 9457 problem+json) turned into an ApiError.

const KEY_ITEM = "hindsight.apiKey";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || "http_error";
    this.problem = problem;
  }
}

export const apiKey = {
  get: () => sessionStorage.getItem(KEY_ITEM),
  set: (key) => sessionStorage.setItem(KEY_ITEM, key),
  clear: () => sessionStorage.removeItem(KEY_ITEM),
};

// Listeners told about every 401 (the shell then asks for a key).
const unauthorizedListeners = [];
export function onUnauthorized(fn) {
  unauthorizedListeners.push(fn);
}

// A query string from an object: arrays repeat the parameter, empty values are left out.
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params || {})) {
    if (value === undefined || value === null || value === "") continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

// fetch(path) with the key; JSON in and out. `raw: true` returns the Response (for /metrics).
export async function call(method, path, { body, params, raw = false } = {}) {
  const headers = { Accept: "application/json, application/problem+json" };
  const key = apiKey.get();
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path + query(params), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "omit",
    cache: "no-store",
  });
  if (!response.ok) {
    let problem = {};
    try {
      problem = await response.json();
    } catch {
      problem = { title: response.statusText };
    }
    const error = new ApiError(response.status, problem);
    if (response.status === 401) for (const fn of unauthorizedListeners) fn(error);
    throw error;
  }
  if (raw) return response;
  return response.status === 204 ? null : response.json();
}

export const get = (path, params) => call("GET", path, { params });
export const post = (path, body, params) => call("POST", path, { body, params });
export const patch = (path, body) => call("PATCH", path, { body });
export const del = (path, params) => call("DELETE", path, { params });
