// "How have we drafted this before?": the variation explorer (POST /api/v1/variations) shows the
// distinct wordings of the lawyer's clause across the library, and "Find more like these" searches
// again with the ticked results as examples (POST /api/v1/precedents with "examples").

import { ApiError } from "./api.js";
import { sourceText } from "./cards.js";
import { blacklineNodes } from "./compare-view.js";
import { append, h, plural, text, truncate } from "./dom.js";
import { filtersFromSettings } from "./settings.js";
import { clauseKey } from "./word.js";

/** "7 wordings across 31 documents (12 near-identical variants)", from the summary. */
export function variationsSummary(summary) {
  const s = summary && typeof summary === "object" ? summary : {};
  const count = (v) => (Number.isInteger(v) && v >= 0 ? v : 0);
  const wordings = count(s.wordings);
  if (!wordings) return "No earlier wordings of this clause were found in the library.";
  const minors = count(s.minor_variations);
  const documents = count(s.documents);
  return `${plural(wordings, "wording")} across ${plural(documents, "document")}${minors ? ` (${plural(minors, "near-identical variant")})` : ""}.`;
}

/** Nodes for a server blackline [{op: equal|insert|delete, text}], drawn like the pane's own. */
function blacklineOps(doc, ops) {
  const segments = (Array.isArray(ops) ? ops : [])
    .filter((o) => o && typeof o.text === "string" && o.text)
    .map((o) => ({ type: o.op === "insert" || o.op === "delete" ? o.op : "equal", text: o.text }));
  return blacklineNodes(doc, segments);
}

function documentsLine(doc, documents) {
  const list = (Array.isArray(documents) ? documents : []).map((d) => text(d?.document) || text(d?.doc_id)).filter(Boolean);
  if (!list.length) return null;
  const shown = list.slice(0, 4).join("; ");
  return h(doc, "p", { className: "variants" }, `In ${plural(list.length, "document")}: ${shown}${list.length > 4 ? `; and ${list.length - 4} more` : ""}`);
}

/** Fill `container` with the majors and their minor variants. */
export function renderVariations(doc, container, answer) {
  // Closest to the lawyer's clause first (the representative's similarity), then the commonest.
  const score = (m) => (typeof m.representative?.score === "number" ? m.representative.score : -1);
  const majors = (Array.isArray(answer?.majors) ? answer.majors : [])
    .filter((m) => m && typeof m === "object")
    .sort((a, b) => score(b) - score(a) || (b.count || 0) - (a.count || 0));
  container.replaceChildren(
    ...majors.map((major, i) => {
      const rep = major.representative && typeof major.representative === "object" ? major.representative : {};
      const minors = (Array.isArray(major.minors) ? major.minors : []).filter((m) => m && typeof m === "object");
      const item = h(
        doc,
        "li",
        { className: "card wording" },
        h(doc, "div", { className: "card-head" },
          h(doc, "span", { className: "card-n" }, `Wording ${i + 1}`),
          Number.isInteger(major.count) ? h(doc, "span", { className: "score match" }, plural(major.count, "clause")) : null),
        h(doc, "p", { className: "source" }, h(doc, "bdi", { className: "source-title" }, sourceText(rep.source))),
        h(doc, "p", { className: "snippet", dir: "auto" }, truncate(rep.text, 400)),
        documentsLine(doc, major.documents),
      );
      if (minors.length) {
        const details = h(doc, "details", { className: "minors" }, h(doc, "summary", {}, `${plural(minors.length, "variant")} of this wording`));
        for (const minor of minors) {
          append(details, h(doc, "div", { className: "blackline" },
            h(doc, "p", { className: "blackline-summary" }, `${sourceText(minor.source)}${Number.isInteger(minor.count) && minor.count > 1 ? ` and ${minor.count - 1} more` : ""}`),
            h(doc, "p", { className: "blackline-text", dir: "auto" }, blacklineOps(doc, minor.blackline))));
        }
        append(item, details);
      }
      return item;
    }),
  );
}

/** Explore and More-like-these over `ctx` ({doc, deps, ui, state, api, feedback, results}). */
export function createExplore(ctx) {
  const { doc, ui, state } = ctx;
  const fb = ctx.feedback;

  async function explore() {
    if (!state.query) return fb.showError("Click Find precedent first.");
    await fb.withRequest("Gathering the library's wordings of this clause…", async (signal) => {
      let answer;
      try {
        answer = await ctx.api().variations({ text: clauseKey(state.query.text), filters: filtersFromSettings(state.settings) }, { signal });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) throw new ApiError("http", "This server cannot show the library's wordings yet. Ask IT to update it.", { status: 404 });
        throw err;
      }
      ui.variationsSummary.textContent = variationsSummary(answer.summary);
      renderVariations(doc, ui.variations, answer);
      ui.variationsSection.hidden = false;
      fb.setStatus(ui.variationsSummary.textContent);
      ui.variationsSection.scrollIntoView?.({ block: "start" });
    });
  }

  async function moreLikeThese() {
    const examples = [...state.picked].map((id) => ({ clause_id: id }));
    if (!examples.length) return fb.showError("Tick Use in redraft on the precedents you like, then click Find more like these.");
    await fb.withRequest(`Searching for precedents like the ${plural(examples.length, "one")} you ticked…`, async (signal) => {
      const rerank = state.capabilities.rerank.available ? state.settings.rerank : null;
      const data = await ctx.api().findPrecedents(
        { examples, topK: state.settings.topK, filters: filtersFromSettings(state.settings), rerank: rerank ?? undefined },
        { signal },
      );
      const kept = state.results.filter((r) => state.picked.has(r.clause_id));
      const fresh = (Array.isArray(data.results) ? data.results : []).filter((r) => r && typeof r.text === "string" && !state.picked.has(r.clause_id));
      // The ticked ones stay first, still ticked, so the redraft can use them.
      state.results = [...kept, ...fresh];
      ctx.usage?.fromSearch(null); // a merged list is no one server list: no usage events for it
      ctx.results.render(data.rerank);
      fb.setStatus(`${plural(fresh.length, "more precedent")} like the ${plural(kept.length, "one")} you ticked.`);
    });
  }

  return { explore, moreLikeThese };
}
