"""Which ACORD clauses' folding words change if variations._words drops the leading number
through the core (paragraphs.without_number) instead of its own regex (the old _NUMBERING,
copied here as it was)."""
import json
import re
import sys
from pathlib import Path

from index_builder.reading.paragraphs import without_number

DATA = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[3].parent / "shared" / "data"
OLD = re.compile(r"^\s*(?:section\s+)?(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,4}\)|[a-z]\.)\s+", re.I)
W = re.compile(r"[a-z0-9]+")
texts = [json.loads(line)["text"] for line in open(DATA / "acord" / "corpus.jsonl")]
old = [tuple(W.findall(OLD.sub("", t).lower())) for t in texts]
new = [tuple(W.findall(without_number(t).lower())) for t in texts]
diff = [(t[:90], o[:6], n[:6]) for t, o, n in zip(texts, old, new) if o != n]
print(len(texts), "texts;", len(diff), "differ")
for text, o, n in diff:
    print(repr(text), "| old", o, "| new", n)
