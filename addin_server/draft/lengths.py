"""The length an instruction sets, and whether a draft keeps to it.

"In no more than two sentences" counts sentences, "under 120 words" counts words, "cut it by
half" allows 0.6 of the clause's words (a lawyer's "half" is not a word count to the letter),
and "shorten", "shorter", "trim" ask for less than 0.8 of them.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from index_builder.reading.sentences import sentence_spans

# A word as the lawyer's word processor counts it: a run between spaces with a letter or digit in it.
# "non-exclusive", "paid-up" and "11.4(i)(c)" are one word each to the lawyer who set "within 45 words";
# counting their pieces reads the limit stricter than it was set. A dash standing alone is no word.
_WORD = re.compile(r"\S*[^\W_]\S*")
_MARKER = re.compile(r"\s*\[\d+\]")


def word_count(text: str) -> int:
    return len(_WORD.findall(_MARKER.sub("", text)))


def length_problem(length: Mapping[str, Any], clause: str, draft: str) -> str:
    """Why the draft is longer than the instruction allows; "" when it keeps to it (or none is set)."""
    mine, theirs = word_count(clause), word_count(draft)
    if "sentences" in length:
        n = len(sentence_spans(_MARKER.sub("", draft)))
        if n > int(length["sentences"]):
            return f"The draft has {n} sentences; you asked for no more than {length['sentences']}."
    if "words" in length and theirs > int(length["words"]):
        return f"The draft has {theirs} words; you asked for no more than {length['words']}."
    ratio = length.get("ratio")
    if ratio is not None and theirs > float(ratio) * mine:
        asked = "half its length" if float(ratio) <= 0.6 else "shorter"
        return (f"The draft is {theirs / max(mine, 1):.0%} of your clause's length ({theirs} words of {mine}); "
                f"you asked for it {asked}.")
    return ""
