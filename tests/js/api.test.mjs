import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError, createApiClient, resolveBaseUrl, retryAfterSeconds } from "../../addin_server/static/taskpane/api.js";

const BASE = "https://precedent.example.com";

/** A fetch stub that records calls and answers with `respond(url, init)`. */
function stubFetch(respond) {
  const calls = [];
  const fetchImpl = async (url, init) => {
    calls.push({ url, init });
    return respond(url, init);
  };
  return { fetchImpl, calls };
}

const json = (status, body, statusText = "") =>
  new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    statusText,
    headers: { "Content-Type": "application/json" },
  });

/** A fetch that never answers but rejects when aborted, as the real one does. */
const hangingFetch = () =>
  stubFetch(
    (url, init) =>
      new Promise((_, reject) => {
        const abort = () => reject(new DOMException("The operation was aborted.", "AbortError"));
        if (init.signal.aborted) abort();
        init.signal.addEventListener("abort", abort);
      }),
  );

test("findPrecedents posts the contract's body with the bearer token", async () => {
  const { fetchImpl, calls } = stubFetch(() => json(200, { results: [], rerank: { status: "skipped" } }));
  const client = createApiClient({ baseUrl: `${BASE}/`, token: "tok", fetchImpl });
  const data = await client.findPrecedents({ text: "clause", topK: 7, filters: { document: "MSA" } });
  assert.deepEqual(data.results, []);
  assert.equal(calls[0].url, `${BASE}/api/v1/precedents`);
  assert.equal(calls[0].init.method, "POST");
  assert.equal(calls[0].init.headers.Authorization, "Bearer tok");
  assert.deepEqual(JSON.parse(calls[0].init.body), { text: "clause", top_k: 7, filters: { document: "MSA" } });
});

test("no token, no Authorization header; empty filters are not sent", async () => {
  const { fetchImpl, calls } = stubFetch(() => json(200, { results: [] }));
  await createApiClient({ baseUrl: BASE, fetchImpl }).findPrecedents({ text: "x", filters: {} });
  assert.equal("Authorization" in calls[0].init.headers, false);
  assert.deepEqual(JSON.parse(calls[0].init.body), { text: "x" });
});

test("redraft and getClause requests", async () => {
  const { fetchImpl, calls } = stubFetch(() => json(200, { ok: true }));
  const client = createApiClient({ baseUrl: BASE, fetchImpl });
  await client.redraft({ text: "t", clauseIds: ["a", "b"], instructions: "mutual" });
  await client.getClause("msa:12.1/a b");
  assert.deepEqual(JSON.parse(calls[0].init.body), { text: "t", clause_ids: ["a", "b"], instructions: "mutual" });
  // "/" stays a path separator (the route takes a path; some servers refuse %2F), the rest is escaped.
  assert.equal(calls[1].url, `${BASE}/api/v1/clauses/msa%3A12.1/a%20b`);
  assert.equal(calls[1].init.method, "GET");
  assert.equal(calls[1].init.body, undefined);
});

test("network error: cannot reach the server at <url>", async () => {
  const { fetchImpl } = stubFetch(() => Promise.reject(new TypeError("Failed to fetch")));
  const err = await createApiClient({ baseUrl: BASE, fetchImpl }).health().catch((e) => e);
  assert.ok(err instanceof ApiError);
  assert.equal(err.kind, "network");
  assert.match(err.message, /^Cannot reach the Precedent server at https:\/\/precedent\.example\.com\./);
});

test("4xx and 5xx JSON errors show the server's message", async () => {
  for (const [status, code, message] of [
    [400, "invalid_request", "The text is longer than 20,000 characters; select a single clause."],
    [404, "not_found", "No clause msa:99."],
    [503, "llm_unavailable", "The language model is not available right now."],
  ]) {
    const { fetchImpl } = stubFetch(() => json(status, { error: { code, message } }));
    const err = await createApiClient({ baseUrl: BASE, fetchImpl }).redraft({ text: "x" }).catch((e) => e);
    assert.equal(err.kind, "http");
    assert.equal(err.status, status);
    assert.equal(err.code, code);
    assert.equal(err.message, message);
  }
});

test("errors without a JSON body get a plain explanation by status", async () => {
  const cases = [
    [401, /API token/],
    [404, /has no Precedent API/],
    [502, /could not answer\. Try again, or ask IT/],
    [503, /not ready/],
  ];
  for (const [status, pattern] of cases) {
    const { fetchImpl } = stubFetch(() => new Response("<html>proxy error</html>", { status, statusText: status === 502 ? "Bad Gateway" : "" }));
    const err = await createApiClient({ baseUrl: BASE, fetchImpl }).health().catch((e) => e);
    assert.equal(err.kind, "http");
    assert.match(err.message, pattern);
  }
});

test("429: how long to wait, from Retry-After; 503 llm_busy: the assistant is busy", async () => {
  const limited = stubFetch(() => Response.json({ error: { code: "rate_limited", message: "Rate limit of 30/minute exceeded (PRECEDENT_RATE_LIMIT)." } }, { status: 429, headers: { "Retry-After": "20" } }));
  const err = await createApiClient({ baseUrl: BASE, fetchImpl: limited.fetchImpl }).health().catch((e) => e);
  assert.equal(err.message, "Too many requests in a short time. Try again in 20 seconds.");
  assert.equal(err.retryAfter, 20);
  assert.equal(err.code, "rate_limited");
  const busy = stubFetch(() => Response.json({ error: { code: "llm_busy", message: "Queue full (4 waiting)." } }, { status: 503 }));
  const err2 = await createApiClient({ baseUrl: BASE, fetchImpl: busy.fetchImpl }).health().catch((e) => e);
  assert.equal(err2.message, "The drafting assistant is busy, try again in a minute.");
  assert.equal(retryAfterSeconds("Wed, 21 Oct 2015 07:28:30 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT")), 30);
  assert.equal(retryAfterSeconds(""), 0);
});

const FAILED = "The drafting assistant failed (upstream error (HTTP 500 (Internal))).";
const SET_URL = "Set PRECEDENT_LLM_BASE_URL to a reachable server at http://10.0.0.5:8081/v1.";

test("server messages reach the lawyer without setting names, addresses or nested brackets", async () => {
  const { fetchImpl } = stubFetch(() =>
    Response.json({ error: { code: "llm_unavailable", message: `${FAILED} ${SET_URL}`, sentences: [FAILED, SET_URL] } }, { status: 502 }),
  );
  const err = await createApiClient({ baseUrl: BASE, fetchImpl }).health().catch((e) => e);
  assert.equal(err.message, "The drafting assistant failed (upstream error). Ask IT to check the server's settings.");
  assert.doesNotMatch(err.message, /PRECEDENT_|http|\(\(|\)\)/);
});

test("the pane splits no server message: without the server's sentences a message is one sentence", async () => {
  // An older server sends no sentences: the message is kept or replaced whole, never cut at "e.g.".
  const { fetchImpl } = stubFetch(() => Response.json({ error: { code: "llm_unavailable", message: `${FAILED} ${SET_URL}` } }, { status: 502 }));
  const err = await createApiClient({ baseUrl: BASE, fetchImpl }).health().catch((e) => e);
  assert.equal(err.message, "Ask IT to check the server's settings.");
});

test("a 200 that is not JSON is reported, not thrown as a parse error", async () => {
  const { fetchImpl } = stubFetch(() => new Response("<html>login page</html>", { status: 200 }));
  const err = await createApiClient({ baseUrl: BASE, fetchImpl }).health().catch((e) => e);
  assert.equal(err.kind, "invalid");
  assert.match(err.message, /cannot read/);
});

test("abort through the caller's signal: cancelled", async () => {
  const { fetchImpl } = hangingFetch();
  const controller = new AbortController();
  const pending = createApiClient({ baseUrl: BASE, fetchImpl }).findPrecedents({ text: "x" }, { signal: controller.signal });
  controller.abort();
  const err = await pending.catch((e) => e);
  assert.equal(err.kind, "cancelled");
  assert.equal(err.message, "Cancelled.");
});

test("an already-aborted signal cancels at once", async () => {
  const { fetchImpl } = hangingFetch();
  const controller = new AbortController();
  controller.abort();
  const { calls } = { calls: [] };
  const err = await createApiClient({ baseUrl: BASE, fetchImpl: (...a) => (calls.push(a), fetchImpl(...a)) })
    .health({ signal: controller.signal })
    .catch((e) => e);
  assert.equal(err.kind, "cancelled");
  assert.equal(calls.length, 0, "nothing is sent");
});

test("timeout: the request is aborted and reported as a timeout", async () => {
  const { fetchImpl } = hangingFetch();
  const err = await createApiClient({ baseUrl: BASE, fetchImpl, timeoutMs: 20 }).health().catch((e) => e);
  assert.equal(err.kind, "timeout");
  assert.match(err.message, /did not answer within/);
});

test("base URL: configured server wins, else the pane's origin", () => {
  assert.equal(resolveBaseUrl("https://a.example.com/", "https://b.example.com"), "https://a.example.com");
  assert.equal(resolveBaseUrl("", "https://b.example.com"), "https://b.example.com");
  assert.equal(resolveBaseUrl("  ", "https://b.example.com/"), "https://b.example.com");
});

test("work-account sign-in: the token from getToken, sign-in needed said plainly, /auth/config asked anonymously", async () => {
  const { fetchImpl, calls } = stubFetch((url) => (url.endsWith("/auth/config") ? Response.json({ mode: "entra" }) : url.endsWith("/health") ? Response.json({ error: { code: "unauthorized", message: "Token expired (PRECEDENT_AUTH_LEEWAY_S)." } }, { status: 401 }) : Response.json({ results: [] })));
  const client = createApiClient({ baseUrl: BASE, token: "ignored", getToken: async () => "T", fetchImpl });
  await client.findPrecedents({ text: "x" });
  assert.equal(calls.at(-1).init.headers.Authorization, "Bearer T");
  await client.authConfig();
  assert.equal(calls.at(-1).init.headers.Authorization, undefined);
  const expired = await client.health().catch((e) => e);
  assert.equal(expired.code, "sign_in_required");
  assert.equal(expired.message, "Sign in with your work account to use Precedent.");
  const needsClick = createApiClient({ baseUrl: BASE, getToken: async () => { throw Object.assign(new Error("Sign in with your work account to use Precedent."), { name: "SignInRequiredError" }); }, fetchImpl });
  const err = await needsClick.findPrecedents({ text: "x" }).catch((e) => e);
  assert.equal(err.code, "sign_in_required");
  assert.equal(calls.length, 3, "no request without the token");
});
