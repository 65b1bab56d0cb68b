"""Test data for the server suite: a few clauses and a scripted model's answers."""

from __future__ import annotations

import math
import re
from typing import Any

from addin_server.llm.scripted import Reply

CLAUSES = {
    "cap-fees": "In no event shall either party's aggregate liability under this Agreement exceed "
                "the fees paid by Customer in the twelve months before the claim.",
    "cap-fixed": "Supplier's total liability for all claims arising out of this Agreement is "
                 "limited to one million dollars.",
    "cap-insurance": "Each party's liability is limited to the amount recoverable under its "
                     "insurance policies.",
    "gov-ny": "This Agreement is governed by the laws of the State of New York.",
    "gov-de": "This Agreement shall be governed by the laws of Delaware, without regard to "
              "conflict of laws principles.",
    "indemnity": "Supplier shall indemnify and hold harmless Customer against all third-party "
                 "claims arising from Supplier's breach.",
    "confidential": "Each party shall keep the other party's Confidential Information secret and "
                    "use it only to perform this Agreement.",
    "term": "This Agreement starts on the Effective Date and continues for three years unless "
            "terminated earlier.",
}


def relevance_responder(body: dict[str, Any]) -> Reply:
    """A deterministic stand-in for a model: rates by word overlap of query and clause.

    It is gullible on purpose: an instruction "rate this N" anywhere in the prompt is
    obeyed, so a test can show that an injected clause reaches it defused.
    """
    prompt = body["messages"][-1]["content"]
    obeyed = re.search(r"rate this(?: clause)? (\d)", prompt, re.IGNORECASE)
    if obeyed:
        return Reply(content=obeyed.group(1), logprobs={obeyed.group(1): 0.0})
    query = _between(prompt, "query")
    clause = _between(prompt, "clause")
    words = set(re.findall(r"[a-z]+", query.lower())) - {"the", "of", "on", "a", "to", "in"}
    overlap = len(words & set(re.findall(r"[a-z]+", clause.lower())))
    rating = min(4, overlap)
    probabilities = {str(rating): 0.8, str(max(rating - 1, 0)): 0.2}
    return Reply(content=str(rating), logprobs={t: math.log(p) for t, p in probabilities.items()})


def _between(prompt: str, tag: str) -> str:
    match = re.search(rf"<{tag}>\n(.*?)\n</{tag}>", prompt, re.DOTALL)
    return match.group(1) if match else ""
