// The open document for the server. The pane does not read parties or defined terms itself:
// it collects what Word gives it (document.js readParagraphs: each paragraph's text, number,
// style, heading and table flags) and the server reads it with the clause-reading core
// (index_builder/reading: the one reader of parties, defined terms and sections; POST
// /api/v1/document). The paragraphs go once per version of the document: the pane keeps the
// server's id with a hash of what it sent, and names the document by that id in /conform,
// /redraft and Check document. A server that no longer holds it (restarted, expired) says
// "document_not_read" and the pane sends it again, once.

import { documentTerms } from "./adapt.js";
import { ApiError } from "./api.js";
import { readParagraphs } from "./document.js";
import { headingTexts } from "./follow-rules.js";
import { logForIt } from "./messages.js";

/** A short hash of the paragraphs, to tell one version of the document from the next. */
export async function documentKey(paragraphs) {
  const text = JSON.stringify(paragraphs ?? []);
  const subtle = globalThis.crypto?.subtle;
  if (subtle && typeof TextEncoder !== "undefined") {
    const digest = await subtle.digest("SHA-256", new TextEncoder().encode(text));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  // Office hosts without Web Crypto (an old embedded browser): FNV-1a over the text, and its length.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${hash.toString(16)}-${text.length}`;
}

/**
 * The document as the server read it: {id, definitions: [{term, section, index, how}],
 * parties: [{name, role, how}], sections: [{number, heading, index}], reference_word,
 * self_name, paragraphs}. Read from Word once per search (`state.query`), sent only when it
 * changed since it was last sent. `ctx`: {deps: {run}, state, api()}.
 */
export async function serverDocument(ctx, { signal, fresh = false } = {}) {
  const { state } = ctx;
  const held = state.serverDocument;
  if (!fresh && held?.profile && held.query === state.query) return held.profile;
  const paragraphs = await readParagraphs(ctx.deps.run, { batchSize: 200 });
  const key = await documentKey(paragraphs);
  if (!fresh && held?.profile && held.key === key) {
    state.serverDocument = { ...held, query: state.query };
    return held.profile;
  }
  const profile = await ctx.api().sendDocument({ paragraphs }, { signal });
  state.serverDocument = { key, query: state.query, profile, headings: headingTexts(profile, paragraphs) };
  return profile;
}

/** `call({id}, profile)` with the document the server holds; sent again once if it forgot it. */
export async function withServerDocument(ctx, call, { signal } = {}) {
  let profile = await serverDocument(ctx, { signal });
  try {
    return await call({ id: profile.id }, profile);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "document_not_read") throw err;
    profile = await serverDocument(ctx, { signal, fresh: true });
    return call({ id: profile.id }, profile);
  }
}

/**
 * The document's terms as the server read them (adapt.js documentTerms), for Insert to keep
 * their capitals; null when there is no reading (an older server, Word or the server failed):
 * Insert then leaves the precedent's capitals as written and says so. Never read here.
 */
export async function serverTerms(ctx, { signal } = {}) {
  try {
    return documentTerms(await serverDocument(ctx, { signal }));
  } catch (err) {
    logForIt("", err?.message, "Precedent (document's terms for Insert)");
    return null;
  }
}

/**
 * The headings in capitals of the document as the server read it (a Set of clauseKey texts),
 * for following the cursor to skip them before any request. The document is read and sent
 * once when the pane holds no reading of it; a reading held from before an edit is used as it
 * is (a heading the lawyer typed since is searched). An empty Set when it cannot be read (then
 * not tried again until the document changes).
 */
export async function documentHeadings(ctx, { signal } = {}) {
  if (!ctx.state.serverDocument) {
    try {
      await serverDocument(ctx, { signal });
    } catch (err) {
      // Not tried again until the document changes (forgetDocument): no reading, no headings.
      ctx.state.serverDocument = { headings: new Set() };
      logForIt("", err?.message, "Precedent (document's headings for following the cursor)");
    }
  }
  return ctx.state.serverDocument?.headings || new Set();
}

/** The document changed (an Insert, an added definition): read and send it again next time. */
export function forgetDocument(state) {
  state.serverDocument = null;
}
