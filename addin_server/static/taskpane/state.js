// The pane's state: what was searched for, what was found and picked, what has been put into
// the document, and what the server can do. Plain data; the flows change it, the views read it.

import { ASSUMED } from "./capabilities.js";
import { clauseKey } from "./word.js";

export function createState(settings) {
  return {
    settings,
    capabilities: ASSUMED,
    facets: null, // {fields: {field: [{value, count}]}} once read from the server
    // The clause searched for: {text, source, expected, reading}. `expected` lists the texts
    // that may stand in its place in the document (the clause itself, then what Insert or Apply
    // put there), checked before any edit; `reading` is the server's reading of its number,
    // heading and capitals (the search answer's `query_reading`), null until one came.
    query: null,
    results: [],
    resultsMode: "ranked", // or "strict": the results are precedents with (nearly) the same words
    picked: new Set(),
    inserted: null, // clause id of the precedent last inserted in place of the clause
    redraft: null, // {answer, prepared, applied}
    busy: null, // AbortController of the request in flight
    editing: false, // a Word edit is in progress
  };
}

/** Start over with a newly searched clause. */
export function setQuery(state, text, source) {
  state.query = { text, source, expected: [text], reading: null };
  state.results = [];
  state.picked.clear();
  state.inserted = null;
  state.redraft = null;
}

/** Record that `text` now stands in the clause's place in the document. */
export function recordEdit(state, text) {
  if (!state.query) return;
  state.query.expected = [state.query.text, text].filter((t, i, all) => all.findIndex((u) => clauseKey(u) === clauseKey(t)) === i);
}

/** The card number [n] of a clause among the results, or null. */
export function cardNumber(state, clauseId) {
  const i = state.results.findIndex((r) => r?.clause_id === clauseId);
  return i >= 0 ? i + 1 : null;
}
