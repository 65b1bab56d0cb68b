"""Follow-the-cursor's skip (heading / short / searched) by the old pane rule vs the server's reading,
for every paragraph of the 104 agreements (as the pane reads them) and every ACORD clause."""
import json, re, collections
from pathlib import Path
from index_builder.ingest.docx_reader import word_paragraphs
from index_builder.reading.paragraphs import from_pane, Paragraph
from index_builder.reading.document import headings_in_capitals

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"  # ../shared/data beside the repository
def key(t): return re.sub(r"\s+", " ", t).strip()
def old(t, minw=8):
    b = key(t); words = [w for w in b.split(" ") if re.search(r"\w", w)]
    letters = [c for c in b if c.isalpha()]; caps = sum(1 for c in letters if c != c.lower())
    if len(words) <= 12 and letters and caps / len(letters) > 0.8 and not re.search(r"[.;:]$", b): return "heading"
    return "short" if len(words) < minw else ""
def new(t, heads, minw=8):
    b = key(t)
    if b in heads: return "heading"
    words = [w for w in b.split(" ") if re.search(r"\w", w)]
    return "short" if len(words) < minw else ""
c = collections.Counter(); ex = collections.defaultdict(list)
docs = [from_pane(word_paragraphs(d)) for d in sorted((DATA / "contracts").rglob("*.docx"))]
docs.append([Paragraph(i, json.loads(l)["text"]) for i, l in enumerate(open(DATA / "acord" / "corpus.jsonl"))])
for paras in docs:
    heads = {key(paras[i].text) for i in headings_in_capitals(paras)} if False else {key(p.text) for p in paras if p.index in set(headings_in_capitals(paras))}
    for p in paras:
        if not key(p.text): continue
        a, b = old(p.text), new(p.text, heads)
        c[(a, b)] += 1
        if a != b: ex[(a, b)].append(key(p.text)[:80])
print(sum(c.values()), "paragraphs;", dict(c))
for k, v in ex.items():
    print(k, len(v), collections.Counter(v).most_common(15))
