// Talking to the Precedent server: JSON over fetch, with cancel and timeouts, and every
// failure turned into an ApiError whose message can be shown to a lawyer as it is (IT detail
// in the server's words goes to the browser console, not the pane).

import { SIGN_IN_MESSAGE } from "./auth.js";
import { forLawyer, logForIt } from "./messages.js";

export const API_PREFIX = "/api/v1";
export const DEFAULT_TIMEOUT_MS = 30_000;
// A redraft waits for the language model, which can take a minute on a busy server. The server
// gives up at PRECEDENT_LLM_DEADLINE_S (120 s) and says why; the pane waits a little longer so
// that the server's own message, not a bare timeout, reaches the lawyer.
export const REDRAFT_TIMEOUT_MS = 150_000;
// A whole document goes up once per version: a long agreement on a slow link takes a while.
export const DOCUMENT_TIMEOUT_MS = 60_000;

/**
 * kind is one of: "network" (server unreachable), "http" (server answered with an error),
 * "timeout", "cancelled", "invalid" (answer was not the JSON we expect).
 */
export class ApiError extends Error {
  constructor(kind, message, { status = 0, code = "", retryAfter = 0 } = {}) {
    super(message);
    this.name = "ApiError";
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/** Where requests go: the configured server URL, else the origin that served the pane. */
export function resolveBaseUrl(serverUrl, origin) {
  const configured = String(serverUrl || "").trim().replace(/\/+$/, "");
  if (configured) return configured;
  return String(origin || "").replace(/\/+$/, "");
}

/**
 * Create a client. `fetchImpl` defaults to the global fetch (tests pass a stub).
 * Every method takes an optional `{signal}` so the pane's Cancel button can abort it.
 */
export function createApiClient({ baseUrl, token = "", getToken = null, fetchImpl = globalThis.fetch, timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
  const base = String(baseUrl || "").replace(/\/+$/, "");
  const where = base || "this address";

  /** The Authorization header: the work-account token when signing in, else the API token. */
  async function authorization(anonymous) {
    if (anonymous) return "";
    if (!getToken) return token ? `Bearer ${token}` : "";
    try {
      const accessToken = await getToken();
      return accessToken ? `Bearer ${accessToken}` : "";
    } catch (err) {
      if (err?.name === "SignInRequiredError") throw new ApiError("auth", err.message, { code: "sign_in_required" });
      logForIt("", String(err?.errorCode || err?.message || err), "Precedent sign-in");
      throw new ApiError("auth", "Signing in with your work account failed. Click Sign in to try again.", { code: "sign_in_required" });
    }
  }

  async function request(method, path, body, { signal, timeout = timeoutMs, anonymous = false } = {}) {
    if (signal?.aborted) throw new ApiError("cancelled", "Cancelled.");
    const auth = await authorization(anonymous);
    // Cancel may have been clicked while a sign-in token was being fetched.
    if (signal?.aborted) throw new ApiError("cancelled", "Cancelled.");
    const controller = new AbortController();
    let timedOut = false;
    const onAbort = () => controller.abort();
    if (signal) signal.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);

    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (auth) headers.Authorization = auth;

    try {
      let response;
      try {
        response = await fetchImpl(`${base}${API_PREFIX}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: controller.signal,
        });
      } catch (err) {
        throw networkError(err, { timedOut, aborted: controller.signal.aborted, where, timeout });
      }
      let data = null;
      let text = "";
      try {
        text = await response.text();
        data = text ? JSON.parse(text) : null;
      } catch (err) {
        if (controller.signal.aborted) throw networkError(err, { timedOut, aborted: true, where, timeout });
        data = null; // not JSON: handled below with the status
      }
      if (!response.ok) throw httpError(response, data, where, Boolean(getToken));
      if (data === null || typeof data !== "object" || Array.isArray(data)) {
        throw new ApiError("invalid", `The server at ${where} sent an answer the pane cannot read. Check the server address in Settings.`, {
          status: response.status,
        });
      }
      return data;
    } finally {
      clearTimeout(timer);
      if (signal) signal.removeEventListener("abort", onAbort);
    }
  }

  return {
    baseUrl: base,

    /** POST /precedents: ranked precedent clauses for `text`. */
    findPrecedents({ text, examples, topK, filters, unit, rerank, mode, minSimilarity, trigger } = {}, options = {}) {
      const body = {};
      if (typeof text === "string") body.text = text;
      if (examples && examples.length) body.examples = examples;
      if (topK) body.top_k = topK;
      if (filters && Object.keys(filters).length) body.filters = filters;
      if (unit === "auto") body.unit = unit; // the server decides: a selected definition searches definitions
      if (typeof rerank === "boolean") body.rerank = rerank;
      // Strict mode and searches the pane started by itself (follow.js, issue 31).
      if (mode === "strict") body.mode = mode;
      if (mode === "strict" && typeof minSimilarity === "number") body.min_similarity = minSimilarity;
      if (trigger === "cursor") body.trigger = trigger;
      return request("POST", "/precedents", body, options);
    },

    /** POST /redraft: a redraft of `text` grounded on the chosen clauses, with citations. */
    redraft({ text, clauseIds, instructions, document, documentTerms, producer } = {}, options = {}) {
      const body = { text };
      if (document) body.document = document; // the open document, by its id (document-profile.js)
      if (clauseIds && clauseIds.length) body.clause_ids = clauseIds;
      if (instructions) body.instructions = instructions;
      if (Array.isArray(documentTerms)) body.document_terms = documentTerms;
      if (producer && producer !== "auto") body.producer = producer;
      return request("POST", "/redraft", body, { timeout: REDRAFT_TIMEOUT_MS, ...options });
    },

    /** POST /document: the open document's paragraphs, read on the server; its id and what was read. */
    sendDocument({ paragraphs } = {}, options = {}) {
      return request("POST", "/document", { paragraphs }, { timeout: DOCUMENT_TIMEOUT_MS, ...options });
    },

    /** POST /document/check: Check document's findings on the document the server holds ({id}). */
    checkDocument({ document } = {}, options = {}) {
      return request("POST", "/document/check", { document }, { timeout: DOCUMENT_TIMEOUT_MS, ...options });
    },

    /** POST /conform: the precedent in the open document's terms (document: {id} from sendDocument). */
    conform({ clauseIds, document, overrides, text, suggest } = {}, options = {}) {
      const body = { clause_ids: clauseIds, document };
      if (suggest) body.suggest = true; // AI suggestions for unmatched terms: shown unticked
      if (overrides && Object.keys(overrides).length) body.overrides = overrides;
      if (typeof text === "string") body.text = text;
      return request("POST", "/conform", body, options);
    },

    /** GET /clauses/<id>: one clause with the clauses around it. */
    getClause(clauseId, options = {}) {
      // Ids hold "/" (folder/file#section): the route takes a path, and some servers refuse %2F.
      const path = String(clauseId).split("/").map(encodeURIComponent).join("/");
      return request("GET", `/clauses/${path}`, undefined, options);
    },

    /** GET /health: status, index, and "capabilities" (what this server can do). */
    health(options = {}) {
      return request("GET", "/health", undefined, options);
    },

    /** POST /variations: the library's distinct wordings of `text` (or of `examples`). */
    variations({ text, examples, filters } = {}, options = {}) {
      const body = {};
      if (typeof text === "string") body.text = text;
      if (examples && examples.length) body.examples = examples;
      if (filters && Object.keys(filters).length) body.filters = filters;
      return request("POST", "/variations", body, options);
    },

    /** POST /market: the terms of `text` against the firm's precedents (issue 24, market-view.js). */
    market({ text, filters } = {}, options = {}) {
      return request("POST", "/market", { text, ...(filters && Object.keys(filters).length ? { filters } : {}) }, options);
    },

    /** POST /market/document: every paragraph [{index, text, isHeading}]; the clauses that stand out. */
    marketDocument({ paragraphs, filters } = {}, options = {}) {
      return request("POST", "/market/document", { paragraphs, ...(filters && Object.keys(filters).length ? { filters } : {}) }, options);
    },

    /** GET /auth/config: how this server signs users in (asked without credentials). */
    authConfig(options = {}) {
      return request("GET", "/auth/config", undefined, { ...options, anonymous: true });
    },

    /** POST /feedback: what the lawyer did with results of list `listId` (ids and ranks only). */
    sendFeedback({ listId, events } = {}, options = {}) {
      return request("POST", "/feedback", { list_id: listId, events }, options);
    },

    /** POST /curation: the knowledge team marks a clause (or its document). */
    curate({ clauseId, status, scope, reason, replacement } = {}, options = {}) {
      return request("POST", "/curation", { clause_id: clauseId, status, scope, reason, replacement }, options);
    },

    /** GET /facets: {fields: {field: [{value, count}]}}, the values filters can pick from. */
    facets(options = {}) {
      return request("GET", "/facets", undefined, options);
    },
  };
}

function networkError(err, { timedOut, aborted, where, timeout }) {
  if (timedOut) {
    return new ApiError("timeout", `The Precedent server at ${where} did not answer within ${Math.round(timeout / 1000)} seconds. Try again, or ask IT to check the server.`);
  }
  if (aborted || err?.name === "AbortError") {
    return new ApiError("cancelled", "Cancelled.");
  }
  return new ApiError(
    "network",
    `Cannot reach the Precedent server at ${where}. Check your connection and the server address in Settings.`,
  );
}

/** Seconds to wait from a Retry-After header (seconds or an HTTP date); 0 when absent. */
export function retryAfterSeconds(value, now = Date.now()) {
  const raw = String(value ?? "").trim();
  if (!raw) return 0;
  if (/^\d+$/.test(raw)) return Number(raw);
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : 0;
}

const waitWords = (s) => (s <= 0 ? "in a minute" : s < 90 ? `in ${s} second${s === 1 ? "" : "s"}` : `in ${Math.ceil(s / 60)} minutes`);

function httpError(response, data, where, signingIn = false) {
  const status = response.status;
  const error = data && typeof data === "object" && data.error && typeof data.error === "object" ? data.error : null;
  const code = String(error?.code || "");
  const retryAfter = retryAfterSeconds(response.headers?.get?.("Retry-After"));
  const raw = typeof error?.message === "string" ? error.message.trim() : "";
  let message;
  if (signingIn && status === 401) {
    message = SIGN_IN_MESSAGE;
    logForIt(message, raw || "HTTP 401");
    return new ApiError("http", message, { status, code: "sign_in_required" });
  }
  if (status === 429 || code === "rate_limited") {
    message = `Too many requests in a short time. Try again ${waitWords(retryAfter)}.`;
  } else if (code === "llm_busy") {
    message = "The drafting assistant is busy, try again in a minute.";
  } else if (raw) {
    message = forLawyer(raw, error?.sentences) || "The Precedent server could not do that. Try again, or ask IT to check the server.";
  } else if (status === 401 || status === 403) {
    message = "The Precedent server refused the request. Check the API token in Settings.";
  } else if (status === 404) {
    message = `The server at ${where} has no Precedent API. Check the server address in Settings.`;
  } else if (status === 413) {
    message = "The selected text is too long for the server. Select a single clause.";
  } else if (status === 503) {
    message = "The Precedent server is not ready (it may be starting or its index is missing). Try again in a minute.";
  } else {
    message = "The Precedent server could not answer. Try again, or ask IT to check the server.";
  }
  logForIt(message, raw || `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}`);
  return new ApiError("http", message, { status, code, retryAfter });
}
