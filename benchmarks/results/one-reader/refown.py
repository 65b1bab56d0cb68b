import json, re, collections
from pathlib import Path
from index_builder.reading import references as R
from index_builder.ingest.docx_reader import word_paragraphs
OLD = re.compile(r"^\s*(?:of|in|to|under)\s+(?:the\s+)?(?!this\b|these\b)[A-Z]")
data = Path("/work/shared/data"); texts = []
for f in data.rglob("corpus.jsonl"): texts += [json.loads(l)["text"] for l in f.open()]
for d in sorted(data.rglob("*.docx")): texts += [p["text"] for p in word_paragraphs(d)]
n = 0; flips = collections.Counter()
for t in texts:
    for m in R._REF.finditer(t):
        n += 1
        st = R._STATUTE.search(t[max(0, m.start() - 40):m.start()])
        o = not (OLD.match(t[m.end():m.end() + 40]) or st); nw = not (R._EXTERNAL.match(t[m.end():m.end() + 40]) or st)
        if o != nw: flips[("own now" if nw else "not own now", t[m.end():m.end()+25].replace("\n"," "))] += 1
print(n, "references;", sum(flips.values()), "change own")
for (k, a), c in flips.most_common(40): print(c, k, "|", a)
