// What this server can do, from GET /api/v1/health "capabilities", so the pane can disable
// what would fail and say why before the lawyer clicks. Servers that predate "capabilities"
// are read from their "llm" block.

import { forLawyer } from "./messages.js";

export const NO_ASSISTANT = "This server has no drafting assistant connected. Ask IT to connect one.";

/** Everything on: before /health has answered, or when it could not be read. */
export const ASSUMED = Object.freeze({
  known: false,
  search: true,
  rerank: { available: true, default: null, reason: "" },
  redraft: { available: true, reason: "" },
  follow: Object.freeze({ available: false, default: false, reason: "", pauseMs: 800, minWords: 8, strictMinSimilarity: 0.9, strict: false }),
});

/** Follow the cursor and strict mode (issue 31): offered only by a server that says so. */
export function followFrom(block) {
  if (!block || typeof block !== "object") {
    return { ...ASSUMED.follow, reason: "This Precedent server does not offer suggestions as you type. Select a clause and click Find precedent." };
  }
  const number = (v, fallback, low, high) => (typeof v === "number" && Number.isFinite(v) && v >= low && v <= high ? v : fallback);
  const available = block.available !== false;
  return {
    available,
    default: available && block.default !== false,
    reason: available ? "" : forLawyer(typeof block.reason === "string" ? block.reason : "") || "Suggestions as you type are turned off on this server.",
    pauseMs: number(block.pause_ms, 800, 100, 10_000),
    minWords: number(block.min_words, 8, 1, 1000),
    strictMinSimilarity: number(block.strict_min_similarity, 0.9, 0.01, 1),
    strict: true, // strict mode is a mode of every search, whether or not following is allowed
  };
}

const reasonOf = (block, fallback) => forLawyer(typeof block?.reason === "string" ? block.reason : "") || fallback;

/** {known, search, rerank: {available, default, reason}, redraft: {available, reason}} from a health answer. */
export function capabilitiesFrom(health) {
  if (!health || typeof health !== "object") return ASSUMED;
  const caps = health.capabilities && typeof health.capabilities === "object" ? health.capabilities : null;
  const llm = health.llm && typeof health.llm === "object" ? health.llm : {};
  const noLlm = llm.configured === false;
  const rerank = caps?.rerank && typeof caps.rerank === "object" ? caps.rerank : null;
  const redraft = caps?.redraft && typeof caps.redraft === "object" ? caps.redraft : null;
  const rerankAvailable = rerank ? rerank.available !== false : !noLlm;
  const redraftAvailable = redraft ? redraft.available !== false : !noLlm;
  return {
    known: true,
    search: caps ? caps.search !== false : true,
    rerank: {
      available: rerankAvailable,
      default: typeof rerank?.default === "boolean" ? rerank.default : typeof llm.rerank_default === "boolean" ? llm.rerank_default : null,
      reason: rerankAvailable ? "" : reasonOf(rerank, "AI rating needs a drafting assistant, and this server has none connected. Ask IT to connect one."),
    },
    redraft: { available: redraftAvailable, reason: redraftAvailable ? "" : reasonOf(redraft, NO_ASSISTANT) },
    follow: followFrom(caps?.follow),
  };
}
