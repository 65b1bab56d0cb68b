// Redraft with the chosen precedents, show it for checking, and Apply it to the document.

import { prepareRedraft } from "./citations.js";
import { conformedAnswer, draftConformComment } from "./conform-draft.js";
import { conformChanges } from "./conform-view.js";
import { plural } from "./dom.js";
import { failedChecks, operationComments, renderDraftReport, uncheckedChecks } from "./draft-report.js";
import { renderRedraft } from "./redraft-view.js";
import { cardNumber, recordEdit } from "./state.js";
import { applyRedraft, clauseKey } from "./word.js";

/** Redraft, Apply and Discard over `ctx` ({doc, deps, ui, state, api, feedback}). */
export function createRedraft(ctx) {
  const { doc, deps, ui, state } = ctx;
  const fb = ctx.feedback;

  async function redraft(producer = "auto") {
    if (!state.query) return fb.showError("Click Find precedent first.");
    if (!state.capabilities.redraft.available) return fb.showError(`Redraft is not available: ${state.capabilities.redraft.reason}`);
    // The open document as the server read it ({id}), so the redraft uses its parties and terms
    // (issue 23) and the checks can flag a term it lacks (issue 32): the server has its terms.
    const document = await ctx.conform?.summary().catch(() => undefined);
    const label = producer === "operation" ? "Redrafting with the drafting operation…" : "Redrafting with the chosen precedents… this can take a minute.";
    let fresh = null;
    await fb.withRequest(label, async (signal) => {
      const answer = await ctx.api().redraft(
        {
          text: clauseKey(state.query.text),
          clauseIds: [...state.picked],
          instructions: ui.instructions.value.trim(),
          document,
          producer: typeof producer === "string" ? producer : "auto",
        },
        { signal },
      );
      const prepared = prepared_(answer);
      state.redraft = fresh = { answer, prepared, applied: false, confirming: false };
      ctx.usage?.send("redraft_used", [...state.picked]);
      show(answer, prepared);
      ui.redraftOutput.hidden = false;
      fb.setStatus(readyMessage(answer));
    });
    if (fresh && state.redraft === fresh) await conform(fresh);
  }

  /** What Apply puts in: the text without markers, its citation comments, the operation's note. */
  function prepared_(answer) {
    const prepared = prepareRedraft(answer);
    prepared.comments.push(...operationComments(answer, prepared.text));
    return prepared;
  }

  function show(answer, prepared) {
    renderRedraft(doc, ui.redraftView, answer, {
      cardOf: (id) => cardNumber(state, id),
      original: state.query.text,
      lawyerText: prepared.text,
    });
    const report = renderDraftReport(doc, answer, { onAskOther: (other) => redraft(other) });
    if (report) ui.redraftView.prepend(report);
  }

  /**
   * Issue 23: the draft gets Insert's conforming pass and mapping view (conform-view.js) before
   * Apply; each answer (the lawyer's edits included) becomes what Apply puts in, with a comment
   * on the clause recording the precedents and every substitution.
   */
  async function conform(current) {
    if (!ctx.conform) return;
    const { answer } = current;
    const ids = (Array.isArray(answer.precedents) ? answer.precedents : []).map((p) => p?.clause_id).filter((id) => typeof id === "string");
    const clauseIds = [...new Set(ids.length ? ids : [...state.picked])].slice(0, 20);
    await ctx.conform.forDraft(answer, {
      clauseIds,
      after: ui.redraftView,
      status: (data, nothing) => `${readyMessage(answer)}${nothing ? "" : " Check the changes to your document's terms below it."}`,
      onData: (data) => {
        if (state.redraft !== current || current.applied) return; // discarded or redrafted again
        const conformed = conformedAnswer(answer, data);
        const prepared = prepared_(conformed);
        const note = draftConformComment(answer, conformChanges(data));
        if (note) prepared.comments.push({ marker: "conform", clauseId: "", text: note, search: "", searchEnd: "" });
        // Re-render after an earlier answer too: unticking every change returns the draft as
        // written, which must replace the conformed wording on screen (Apply uses `prepared`).
        const shownBefore = Boolean(current.conform);
        current.prepared = prepared;
        current.conform = data;
        if (conformed !== answer || shownBefore) show(conformed, prepared);
      },
    });
  }

  async function apply() {
    if (!state.redraft || !state.query || state.redraft.applied) return;
    const { prepared, answer } = state.redraft;
    const failed = failedChecks(answer);
    if (failed.length && !state.redraft.confirming) {
      // Asked once: the failed checks are on screen; a second click applies.
      state.redraft.confirming = true;
      fb.refreshButtons();
      fb.setStatus(`This draft failed ${plural(failed.length, "check")} (${failed.map((f) => f.reason).join(" ")}) Click Apply anyway to put it in the document, or Discard.`);
      return;
    }
    await fb.withEdit("apply the redraft", async () => {
      const { placed } = await applyRedraft(deps.run, {
        expectedText: state.query.expected,
        text: prepared.text,
        comments: prepared.comments,
      });
      recordEdit(state, prepared.text);
      state.redraft.applied = true;
      state.inserted = null;
      const loose = placed.filter((p) => p.anchoredOn !== "sentence" && p.marker !== "conform").length;
      let message = `Redraft applied as a tracked change with ${plural(placed.length, "comment")} recording its sources.`;
      if (placed.some((p) => p.marker === "conform")) message += " The comment on the clause lists what was conformed to your document.";
      // The mapping view stays to read, but it no longer changes what is in the document.
      for (const el of ui.redraftOutput.querySelectorAll(".conform-draft input")) el.disabled = true;
      if (loose) message += ` ${loose} could not be matched to its sentence and ${loose === 1 ? "is" : "are"} on the whole clause.`;
      fb.setStatus(message);
    });
  }

  function discard() {
    state.redraft = null;
    ui.redraftOutput.hidden = true;
    ui.redraftView.replaceChildren();
    ui.redraftOutput.querySelector(".conform-draft")?.remove();
    fb.refreshButtons();
  }

  return { redraft, apply, discard };
}

/** The status line once a redraft is back: citations, and what needs the lawyer's eye. */
export function readyMessage(answer) {
  const failed = failedChecks(answer);
  if (failed.length) return `Redraft ready, but it failed ${plural(failed.length, "check")}: ${failed[0].reason} Read the checks before you apply it.`;
  const n = Array.isArray(answer?.citations) ? answer.citations.length : 0;
  const flagged = Array.isArray(answer?.flagged) ? answer.flagged.length : 0;
  const uncited = Array.isArray(answer?.uncited_sentences) ? answer.uncited_sentences.length : 0;
  const unread = uncheckedChecks(answer).length;
  const checks = [flagged && plural(flagged, "flagged citation"), uncited && plural(uncited, "sentence") + " without a source"].filter(Boolean);
  // Its own sentence: "check 1 check that could not be made" read as a stutter.
  const notMade = unread ? ` ${plural(unread, "check")} could not be made: read ${unread === 1 ? "it" : "them"} in the report.` : "";
  return `Redraft ready with ${plural(n, "citation")}${checks.length ? `; check ${checks.join(" and ")}` : ""}.${notMade} Review it, then Apply to put it in the document.`;
}
