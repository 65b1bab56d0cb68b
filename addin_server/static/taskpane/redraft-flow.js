// Redraft with the chosen precedents, show it for checking, and Apply it to the document.

import { prepareRedraft } from "./citations.js";
import { plural } from "./dom.js";
import { failedChecks, operationComments, renderDraftReport } from "./draft-report.js";
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
    const label = producer === "operation" ? "Redrafting with the drafting operation…" : "Redrafting with the chosen precedents… this can take a minute.";
    await fb.withRequest(label, async (signal) => {
      const answer = await ctx.api().redraft(
        {
          text: clauseKey(state.query.text),
          clauseIds: [...state.picked],
          instructions: ui.instructions.value.trim(),
          // The defined terms of the lawyer's document, where the pane has read them.
          documentTerms: Array.isArray(state.documentTerms) ? state.documentTerms : undefined,
          producer: typeof producer === "string" ? producer : "auto",
        },
        { signal },
      );
      const prepared = prepareRedraft(answer);
      prepared.comments.push(...operationComments(answer, prepared.text));
      state.redraft = { answer, prepared, applied: false, confirming: false };
      renderRedraft(doc, ui.redraftView, answer, {
        cardOf: (id) => cardNumber(state, id),
        original: state.query.text,
        lawyerText: prepared.text,
      });
      const report = renderDraftReport(doc, answer, { onAskOther: (other) => redraft(other) });
      if (report) ui.redraftView.prepend(report);
      ui.redraftOutput.hidden = false;
      fb.setStatus(readyMessage(answer));
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
      const loose = placed.filter((p) => p.anchoredOn !== "sentence").length;
      let message = `Redraft applied as a tracked change with ${plural(placed.length, "comment")} recording its sources.`;
      if (loose) message += ` ${loose} could not be matched to its sentence and ${loose === 1 ? "is" : "are"} on the whole clause.`;
      fb.setStatus(message);
    });
  }

  function discard() {
    state.redraft = null;
    ui.redraftOutput.hidden = true;
    ui.redraftView.replaceChildren();
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
  const checks = [flagged && plural(flagged, "flagged citation"), uncited && plural(uncited, "sentence") + " without a source"].filter(Boolean);
  return `Redraft ready with ${plural(n, "citation")}${checks.length ? `; check ${checks.join(" and ")}` : ""}. Review it, then Apply to put it in the document.`;
}
