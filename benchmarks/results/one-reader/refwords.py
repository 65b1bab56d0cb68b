"""Old conform._reference_words (frozen copy) vs the product's, over the ACORD corpus and the
.docx paragraphs, for each reference word a document may use."""
import json, re, sys
from pathlib import Path
_EXT = re.compile(r"^\s*(?:of|in|to|under)\s+(?:the\s+)?(?!this\b|these\b)[A-Z]")
def another_documents(after): return bool(_EXT.match(after))
import importlib; conform = importlib.import_module("addin_server.conform.conform")
from index_builder.ingest.docx_reader import word_paragraphs

def old(text, word):
    out = []
    for m in re.finditer(r"\b(Section|Clause|Article|Paragraph)(s?)(?=\s+\d)", text):
        if m.group(1) != word and not another_documents(text[m.end():m.end() + 60].split(")", 1)[-1][:40]):
            out.append((m.start(), m.end(), word + m.group(2)))
    return out

def new(text, word):
    return [(s.start, s.end, s.replacement) for s in conform._reference_words(text, word)]

data = Path("/work/shared/data")
texts = []
for f in data.rglob("corpus.jsonl"):
    texts += [json.loads(l)["text"] for l in f.open()]
for d in sorted(data.rglob("*.docx")):
    try:
        texts += [p["text"] for p in word_paragraphs(d)]
    except Exception as e:
        pass
n = same = 0; diffs = []
for t in texts:
    for w in ("Section", "Clause", "Article"):
        a, b = old(t, w), new(t, w)
        n += len(set(a) | set(b))
        if a != b:
            diffs.append((w, t, sorted(set(a) - set(b)), sorted(set(b) - set(a))))
print(len(texts), "texts;", n, "rewrites (union);", len(diffs), "texts x words differ")
for w, t, only_old, only_new in diffs[:40]:
    print("---", w, "old only:", [t[s-10:e+50] for s, e, _ in only_old], "new only:", [t[s-10:e+50] for s, e, _ in only_new])
import collections
oo = collections.Counter(); no = collections.Counter()
for w, t, only_old, only_new in diffs:
    if w != "Clause": continue
    for s, e, _ in only_old: oo[t[s:e+45]] += 1
    for s, e, _ in only_new: no[t[s-20:e+45]] += 1
print("Clause: old-only", sum(oo.values()), "new-only", sum(no.values()))
for k in oo: print("OLD ONLY |", k.replace("\n"," "))
for k in no: print("NEW ONLY |", k.replace("\n"," "))
