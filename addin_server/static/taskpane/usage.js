// Usage feedback (issue 27): what the lawyer did with a result (Insert, Copy, Compare, Show full
// clause, used in a redraft, helpful or not, "not relevant" with a reason) goes to
// POST /api/v1/feedback so the firm's ranker can learn from the firm's use. Only the result
// list's id, the clause id, its rank and place are sent: never clause or query text. Sending
// is fire and forget: a failure is logged for IT and never interrupts the lawyer.
// (feedback.js is the pane's status line; this is something else.)

import { h } from "./dom.js";
import { logForIt } from "./messages.js";

export const REASONS = [
  ["wrong_topic", "Different subject"],
  ["wrong_jurisdiction", "Wrong governing law"],
  ["outdated", "Out of date"],
  ["wrong_party", "Favours the other side"],
  ["too_long", "Too long to use"],
  ["other", "Other reason"],
];
// Opening and closing a view twice says no more than once.
const ONCE = new Set(["compare", "show_full", "thumbs_up", "thumbs_down", "not_relevant", "redraft_used"]);

/** The event the server expects, or null when the result is not on the current list. */
export function feedbackEvent(kind, results, clauseId, reason = "") {
  const i = (Array.isArray(results) ? results : []).findIndex((r) => r?.clause_id === clauseId);
  if (i < 0) return null;
  const rank = Number.isInteger(results[i].rank) ? results[i].rank : i + 1;
  const event = { kind, clause_id: clauseId, rank, position: i + 1 };
  if (kind === "not_relevant" && reason) event.reason = reason;
  return event;
}

/** {fromSearch(data), fromHealth(health), send(kind, clauseIds, reason), canCurate()} over ctx. */
export function createUsage(ctx) {
  let listId = null;
  let curate = false;
  const sent = new Set();
  return {
    fromSearch(data) {
      listId = data && typeof data.list_id === "string" ? data.list_id : null;
      sent.clear();
    },
    fromHealth(health) {
      curate = health?.curation?.can_curate === true;
    },
    canCurate: () => curate,
    /** Send one event per clause id; resolves true when the server kept them. */
    async send(kind, clauseIds, reason = "") {
      if (!listId) return false;
      const events = (Array.isArray(clauseIds) ? clauseIds : [clauseIds])
        .filter((id) => !ONCE.has(kind) || !sent.has(`${kind}:${id}`))
        .map((id) => feedbackEvent(kind, ctx.state.results, id, reason))
        .filter(Boolean);
      if (!events.length) return false;
      events.forEach((e) => sent.add(`${kind}:${e.clause_id}`));
      try {
        await ctx.api().sendFeedback({ listId, events });
        return true;
      } catch (err) {
        logForIt("", err?.message, "Precedent (usage feedback)");
        return false;
      }
    },
  };
}

/** The card's "Helpful?" row: thumbs up/down and "Not relevant" with a reason. */
export function usageControls(doc, result, handlers) {
  const row = h(doc, "div", { className: "usage", role: "group", "aria-label": "Was this precedent useful?" });
  const thanks = h(doc, "span", { className: "usage-thanks", role: "status" });
  const reason = h(doc, "select", { className: "usage-reason", "aria-label": "Why is it not relevant?", hidden: true },
    h(doc, "option", { value: "" }, "Why not? (optional)"),
    REASONS.map(([value, label]) => h(doc, "option", { value }, label)));
  const done = (message) => {
    thanks.textContent = message;
    row.querySelectorAll("button").forEach((b) => (b.disabled = true));
  };
  const say = (kind, message) => () => {
    handlers.onFeedback?.(result, kind, "");
    done(message);
  };
  const notRelevant = h(doc, "button", { type: "button", className: "link", dataset: { action: "not-relevant" }, onclick: () => {
    if (reason.hidden) {
      reason.hidden = false;
      notRelevant.textContent = "Send: not relevant";
      return;
    }
    handlers.onFeedback?.(result, "not_relevant", reason.value);
    reason.hidden = true;
    notRelevant.textContent = "Not relevant";
    done("Noted: not relevant. Thank you.");
  } }, "Not relevant");
  row.append(
    h(doc, "span", { className: "usage-label" }, "Helpful?"),
    h(doc, "button", { type: "button", className: "link thumb", dataset: { action: "thumbs-up" }, title: "This precedent was helpful", onclick: say("thumbs_up", "Thank you.") }, "Yes"),
    h(doc, "button", { type: "button", className: "link thumb", dataset: { action: "thumbs-down" }, title: "This precedent was not helpful", onclick: say("thumbs_down", "Thank you.") }, "No"),
    notRelevant,
    reason,
    thanks,
  );
  return row;
}
