"""What the model's second opinion does to the support check's answers on the citation set.

Run against a tree on PYTHONPATH (before: the frozen main, after: this branch):

    PYTHONPATH=<tree> python benchmarks/results/citations/session8/model_yes.py

The set is `precedent-bench citations`' (102 agreements, held-out families apart). Every pair the
wording check flags goes through the server's own SupportVerifier.review with a stand-in model
that rejects the control pair and then answers each flagged pair as told:
- "yes": yes to every pair (the embedded 1.5B model said yes to 24 of 24 flagged pairs,
  benchmarks/results/citations/citations.md 1.3; the new user's model also passed the control);
- "oracle": yes exactly when the pair's label says the precedent backs it (a perfect model).
A pair is "shown supported" when its comment carries no flag after review.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from addin_server.draft import support
from addin_server.draft.citations import Comment, VerifiedRedraft, comment_text
from addin_server.draft.verifier import CONTROL, SupportVerifier
from index_builder.model import Clause
from precedent_bench.drafting.citation_support import CONTRACTS, build_examples, is_test, load_documents


@dataclass
class _Completion:
    text: str


class _StandIn:
    """A chat client that answers the control "no" and each pair by a rule."""

    def __init__(self, rule) -> None:
        self.rule = rule
        self.pairs: dict[str, int] = {}

    def complete(self, messages, **_: object) -> _Completion:
        asked = messages[-1]["content"]
        if CONTROL[1] in asked:
            return _Completion("no")
        return _Completion("yes" if self.rule(asked) else "no")


class _Prompt:
    def render(self, sentence: str, precedent: str) -> list[dict[str, str]]:
        return [{"role": "user", "content": f"<precedent>{precedent}</precedent><sentence>{sentence}</sentence>"}]


def table(examples, policy: str) -> list[str]:
    rows = []
    for part, chosen in (("train", [e for e in examples if not is_test(e.family)]),
                         ("held-out", [e for e in examples if is_test(e.family)])):
        shown = []
        for e in chosen:
            s = support.score_support(e.sentence, e.clause)
            if s.supported:
                shown.append((e.label, True, s.score))
                continue
            clause = Clause("p1", e.clause, "d")
            comment = Comment("[1]", "p1", 0, len(e.sentence), e.sentence + " [1]", "", 1, s)
            comment.text = comment_text(1, clause, comment.sentence, s)
            verified = VerifiedRedraft(e.sentence, [1], [comment])
            backed = {e.sentence: e.label}
            rule = (lambda asked: True) if policy == "yes" else (
                lambda asked, b=backed, sen=e.sentence: b[sen] == 1)
            SupportVerifier(_StandIn(rule), _Prompt(), "m").review(verified, [clause])
            shown.append((e.label, comment.flag is None, s.score))
        tp = sum(1 for y, ok, _ in shown if ok and y == 1)
        fp = sum(1 for y, ok, _ in shown if ok and y == 0)
        fn = sum(1 for y, ok, _ in shown if not ok and y == 1)
        low = sum(1 for y, ok, sc in shown if ok and sc < support.THRESHOLD)
        rows.append(f"| {policy} | {part} | {len(shown)} | {tp + fp} | {fp} | "
                    f"{tp / max(tp + fp, 1):.3f} | {tp / max(tp + fn, 1):.3f} | {low} |")
    return rows


def main() -> int:
    examples = build_examples(load_documents(CONTRACTS))
    print("| model answers | part | pairs | shown supported | of them unsupported | supported: precision "
          "| supported: recall | shown supported below the floor |")
    print("|---|---|---|---|---|---|---|---|")
    for policy in sys.argv[1:] or ("yes", "oracle"):
        print("\n".join(table(examples, policy)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
