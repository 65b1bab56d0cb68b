"""Which texts' folding words change if variations._words drops the leading number through the
core (paragraphs.without_number) instead of its own _NUMBERING: every ACORD clause and every
clause of the shared agreements as the index reads them."""
import json, re, sys
from pathlib import Path
from index_builder.reading.paragraphs import without_number
from index_builder.retrieve import variations as V

texts = []
corpus = Path('/work/shared/data')
for p in corpus.rglob('corpus.jsonl'):
    for line in open(p):
        texts.append(json.loads(line)['text'])
from index_builder.ingest import read_clauses
for d in sorted((corpus / 'contracts').rglob('*.docx')):
    try:
        texts.extend(c.text for c in read_clauses(d))
    except Exception as exc:
        pass
W = re.compile(r"[a-z0-9]+")
old = lambda t: tuple(W.findall(V._NUMBERING.sub("", t).lower()))
new = lambda t: tuple(W.findall(without_number(t).lower()))
diff = [(t[:90], old(t)[:6], new(t)[:6]) for t in texts if old(t) != new(t)]
print(len(texts), 'texts;', len(diff), 'differ')
for d in diff[:80]:
    print(repr(d[0]), '| old', d[1], '| new', d[2])
