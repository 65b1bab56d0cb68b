// Follow the cursor (issue 31): suggestions without a click. When the lawyer pauses, the pane
// searches the paragraph the cursor is in (or the selection), and refreshes the results in
// place as the lawyer edits or moves on.
//
// Events. Word tells the pane about the cursor with the common API's DocumentSelectionChanged
// (every Word since 2013) and, where WordApi 1.6 is supported, about typing with
// document.onParagraphChanged. Neither fires per keystroke on every host and either can be
// missed (office-js#2964, #976); on Word on the web a coauthor's edit fires
// DocumentSelectionChanged too (office-js#4114) and paragraph events carry source "Remote".
// So an event is only a nudge: after the pause the pane reads the paragraph itself, and sends
// nothing when it is the one searched last, too short, a heading, a signature line, "[Reserved]"
// or longer than a clause. Remote paragraph events are ignored.
//
// Requests. One at a time: a newer search aborts the older one (AbortController), and an
// answer that is no longer the latest is dropped. Nothing is sent while the pane is hidden, while
// a click's search or an edit is running, or while the lawyer works with the results (ticked
// precedents, a redraft). A 429 waits for the server's Retry-After; other failures wait
// 2, 4, 8 ... s. A 403 follow_off (the firm turned it off) turns the toggle off and greys it.
// Searches sent from here never ask for AI rating (one LLM call per pause would be costly).
//
// The state is on #follow-bar as data-state (off, idle, waiting, searching, backoff, hidden,
// unavailable) and data-sent, for the lawyer's screen reader and for the tests.

import { ApiError } from "./api.js";
import { documentHeadings } from "./document-profile.js";
import { plural } from "./dom.js";
import { backoffMs, createFollowStore, readCursorTarget, skipMessage, skipReason } from "./follow-rules.js";
import { filtersFromSettings } from "./settings.js";
import { setQuery } from "./state.js";
import { decorateCards, strictNote } from "./strict-view.js";
import { clauseKey, holdsExpected } from "./word.js";

/** Answers kept per session, so returning to a paragraph shows its results without a request. */
const CACHE_SIZE = 20;

export function createFollow(ctx) {
  const { doc, deps, ui, state } = ctx;
  const office = deps.office;
  const store = createFollowStore(deps.storage);
  const bar = doc.getElementById("follow-bar");
  const toggle = doc.getElementById("follow-toggle");
  const strictToggle = doc.getElementById("strict-toggle");
  const level = doc.getElementById("strict-level");
  const threshold = doc.getElementById("strict-threshold");
  const thresholdValue = doc.getElementById("strict-value");
  const line = doc.getElementById("follow-state");
  const cache = new Map();
  let prefs = store.load();
  let timer = null;
  let controller = null;
  let seq = 0;
  let lastKey = "";
  let pending = false; // an event arrived while the pane was hidden or waiting
  let backoffUntil = 0;
  let failures = 0;
  let sent = 0;
  let listening = false;
  let hiddenByHost = false;
  let force = false; // the lawyer changed the mode or level: search the same paragraph again

  const caps = () => state.capabilities.follow;
  const on = () => caps().available && (prefs.on ?? caps().default);
  const minSimilarity = () => prefs.minSimilarity ?? caps().strictMinSimilarity;
  const hidden = () => hiddenByHost || doc.visibilityState === "hidden";
  const working = () => state.picked.size > 0 || Boolean(state.redraft);

  function setState(name, message) {
    bar.dataset.state = name;
    bar.dataset.sent = String(sent);
    if (message !== undefined) line.textContent = message;
  }

  /** Search options for any search (Find precedent too): strict mode when the lawyer chose it. */
  function options() {
    return prefs.strict && caps().strict ? { mode: "strict", minSimilarity: minSimilarity() } : {};
  }

  // -- events -------------------------------------------------------------------------------
  function listen() {
    if (listening || !deps.canRead || !office?.context?.document?.addHandlerAsync) return;
    listening = true;
    const type = office.EventType?.DocumentSelectionChanged ?? "documentSelectionChanged";
    office.context.document.addHandlerAsync(type, nudge, (result) => {
      if (result?.status === "failed") setState("unavailable", "This version of Word does not tell add-ins where the cursor is. Click Find precedent.");
    });
    if (office.context.requirements?.isSetSupported?.("WordApi", "1.6")) {
      // Typing inside a paragraph without moving the cursor elsewhere; the local lawyer's only.
      deps
        .run(async (context) => {
          context.document.onParagraphChanged.add(async (event) => {
            if (event?.source !== "Remote") nudge();
          });
          await context.sync();
        })
        .catch(() => {}); // selection events alone still work
    }
    doc.addEventListener("visibilitychange", () => visibility(hidden()));
    office.addin?.onVisibilityModeChanged?.((args) => {
      hiddenByHost = String(args?.visibilityMode).toLowerCase() === "hidden";
      visibility(hidden());
    });
  }

  function visibility(isHidden) {
    if (isHidden) {
      clearTimeout(timer);
      controller?.abort();
      if (on()) setState("hidden", "Paused while the pane is hidden.");
    } else if (on()) {
      setState("idle", "Suggestions follow the cursor: pause in a clause to see its precedents.");
      if (pending) schedule(caps().pauseMs);
    }
  }

  /** An event: (re)start the pause. */
  function nudge() {
    if (!on()) return;
    pending = true;
    if (hidden()) return;
    schedule(caps().pauseMs);
  }

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(fire, ms);
    if (bar.dataset.state !== "searching" && bar.dataset.state !== "backoff") setState("waiting");
  }

  // -- after the pause ------------------------------------------------------------------------
  async function fire() {
    timer = null;
    if (!on() || hidden()) return;
    const wait = backoffUntil - Date.now();
    if (wait > 0) return schedule(wait);
    if (state.busy || state.editing) return schedule(caps().pauseMs); // a click's search or an edit first
    if (working()) return setState("idle", "Paused while you work with these results. Untick the precedents to follow the cursor again.");
    pending = false;
    let target;
    try {
      target = await readCursorTarget(deps.run, { hasApi13: Boolean(office?.context?.requirements?.isSetSupported?.("WordApi", "1.3")) });
    } catch {
      return setState("idle", "Word did not say what is at the cursor. Click in the document again.");
    }
    const headings = await documentHeadings(ctx);
    if (!on() || hidden()) return;
    const reason = skipReason(target, { minWords: caps().minWords, headings });
    if (reason) return setState("idle", skipMessage(reason, target));
    const text = clauseKey(target.text);
    // The clause on show, or what Insert put in its place: the results are already about it.
    if (!force && state.query && holdsExpected(target.text, state.query.expected)) return setState("idle");
    force = false;
    const key = JSON.stringify([text, options(), filtersFromSettings(state.settings), state.settings.topK]);
    if (key === lastKey) return setState("idle"); // never the same paragraph twice in a row
    lastKey = key;
    if (cache.has(key)) return show(target, cache.get(key), true);
    await search(target, text, key);
  }

  async function search(target, text, key) {
    controller?.abort(); // the older paragraph's answer is stale
    const mine = new AbortController();
    controller = mine;
    const n = ++seq;
    sent++;
    setState("searching", `Searching ${where(target)}…`);
    let data;
    try {
      data = await ctx.api().findPrecedents(
        { text, topK: state.settings.topK, filters: filtersFromSettings(state.settings), rerank: false, trigger: "cursor", ...options() },
        { signal: mine.signal },
      );
    } catch (err) {
      if (n !== seq) return; // superseded: the newer search reports
      controller = null;
      if (err instanceof ApiError && err.kind === "cancelled") {
        lastKey = ""; // not searched after all: search it when the lawyer is back
        return setState(hidden() ? "hidden" : "idle");
      }
      return failed(err);
    }
    if (n !== seq) return;
    controller = null;
    failures = 0;
    remember(key, data);
    show(target, data, false);
  }

  function failed(err) {
    lastKey = ""; // the paragraph was not searched: search it after the wait
    if (err instanceof ApiError && err.code === "follow_off") {
      state.capabilities = { ...state.capabilities, follow: { ...caps(), available: false, reason: err.message } };
      return render();
    }
    failures++;
    const ms = backoffMs(err, failures);
    backoffUntil = Date.now() + ms;
    const seconds = Math.ceil(ms / 1000);
    const why = err instanceof ApiError && err.status === 429 ? "The server asked the pane to slow down" : "The server could not be reached";
    setState("backoff", `${why}; suggestions resume in ${plural(seconds, "second")}. Find precedent still works.`);
    schedule(ms);
  }

  function remember(key, data) {
    cache.delete(key);
    cache.set(key, data);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value);
  }

  /**
   * Replace the results in place: one DOM swap (never an empty list between two answers), and
   * when the lawyer has scrolled, the results stay where they were on screen even if the lines
   * above them (status, clause) change height.
   */
  function show(target, data, cached) {
    const scroller = doc.scrollingElement || doc.documentElement;
    const anchor = scroller.scrollTop > 0 && !ui.resultsSection.hidden ? ui.resultsSection.getBoundingClientRect().top : null;
    setQuery(state, target.text, target.source);
    if (data.query_reading) state.query.reading = data.query_reading; // its number, heading, capitals
    state.results = (Array.isArray(data.results) ? data.results : []).filter((r) => r && typeof r === "object" && typeof r.text === "string");
    state.resultsMode = data.mode === "strict" ? "strict" : "ranked";
    ctx.redraft.discard();
    ui.variationsSection.hidden = true;
    ui.redraftSection.hidden = true;
    ctx.results.render(data.rerank);
    ctx.results.showQuery?.();
    const n = state.results.length;
    const strict = state.resultsMode === "strict";
    if (!strict) {
      // Cursor searches never ask for AI rating; say how to get it rather than "turn it on".
      ui.rerankNote.textContent = n && state.capabilities.rerank.available ? "Ordered by how closely the wording matches. Click Find precedent to have them rated by AI." : "";
      ui.rerankNote.hidden = !ui.rerankNote.textContent;
    }
    ctx.feedback.setStatus(
      n ? `${plural(n, "precedent")} for ${where(target)}.` : strict ? "No precedent uses these words." : `No precedents found for ${where(target)}.`,
    );
    setState("idle", `${cached ? "Shown again" : "Updated"} for ${where(target)}. Suggestions follow the cursor.`);
    if (anchor === null) return;
    const keep = () => {
      scroller.scrollTop += ui.resultsSection.getBoundingClientRect().top - anchor;
    };
    keep();
    // Lines above the results (the status, the clause) may still change height this frame.
    doc.defaultView?.requestAnimationFrame?.(keep);
  }

  function where(target) {
    const what = target.source === "paragraph" ? "the paragraph at the cursor" : "your selection";
    if (target.where === "table cell") return `${what} (a table cell)`;
    if (target.where === "content control") return `${what} (in the content control${target.control ? ` “${target.control}”` : ""})`;
    return what;
  }

  /** After any render of results (this module's or Find precedent's): strict lines, curation. */
  function decorate(list) {
    // "More like these" renders ranked results after a strict search: those carry no match.
    const strict = state.resultsMode === "strict" && state.results.every((r) => r.match);
    decorateCards(doc, list, state.results, state.query?.text || "", strict, state.query?.reading);
    if (strict) {
      ui.rerankNote.textContent = strictNote(minSimilarity(), state.results.length);
      ui.rerankNote.hidden = false;
    }
  }

  // -- the controls -----------------------------------------------------------------------------
  function render() {
    const c = caps();
    bar.hidden = !state.capabilities.known;
    toggle.checked = on();
    toggle.disabled = !c.available || !deps.canRead;
    toggle.title = c.available ? "Search the paragraph you are in whenever you pause" : c.reason;
    strictToggle.checked = prefs.strict;
    strictToggle.disabled = !c.strict;
    level.hidden = !prefs.strict || !c.strict;
    threshold.value = String(Math.round(minSimilarity() * 100));
    thresholdValue.textContent = `${threshold.value}%`;
    if (!c.available) {
      clearTimeout(timer);
      controller?.abort();
      return setState("unavailable", c.reason);
    }
    if (!on()) {
      clearTimeout(timer);
      controller?.abort();
      return setState("off", "Suggestions as you type are off. Select a clause and click Find precedent.");
    }
    listen();
    if (hidden()) return setState("hidden", "Paused while the pane is hidden.");
    if (!["searching", "waiting", "backoff"].includes(bar.dataset.state)) {
      setState("idle", "Suggestions follow the cursor: pause in a clause to see its precedents.");
    }
  }

  function savePrefs(changes) {
    prefs = store.save({ ...prefs, ...changes });
  }

  toggle.addEventListener("change", () => {
    savePrefs({ on: toggle.checked });
    lastKey = "";
    render();
    if (on()) nudge();
  });
  strictToggle.addEventListener("change", () => {
    savePrefs({ strict: strictToggle.checked });
    render();
    refresh();
  });
  threshold.addEventListener("input", () => {
    thresholdValue.textContent = `${threshold.value}%`;
  });
  threshold.addEventListener("change", () => {
    savePrefs({ minSimilarity: Number(threshold.value) / 100 });
    render();
    refresh();
  });
  // A click's search replaces whatever the cursor search was about to show.
  ui.find.addEventListener("click", () => {
    clearTimeout(timer);
    controller?.abort();
  }, true);

  /** Search again for the paragraph at the cursor (mode or level changed), or the last clause found. */
  function refresh() {
    lastKey = "";
    force = true;
    if (on()) return nudge();
    if (state.query && !state.busy) ctx.results.searchAgain?.();
  }

  return { render, options, decorate, nudge, stats: () => ({ sent, state: bar.dataset.state }) };
}
