import json, sys
from pathlib import Path
from index_builder.ingest.docx_reader import word_paragraphs
from index_builder.reading.paragraphs import from_pane

DATA = Path(__file__).resolve().parents[3].parent / "shared" / "data"  # ../shared/data beside the repository
a = {json.loads(l)["id"]: json.loads(l)["v"] for l in open(sys.argv[1]) if '"k": "doc-pane"' in l}
b = {json.loads(l)["id"]: json.loads(l)["v"] for l in open(sys.argv[2]) if '"k": "doc-pane"' in l}
tot = [0, 0]
for k in a:
    if a[k]["check"] == b[k]["check"]: continue
    paras = from_pane(word_paragraphs((DATA / "contracts") / k))
    A = {json.dumps(f, sort_keys=True) for f in a[k]["check"]}; B = {json.dumps(f, sort_keys=True) for f in b[k]["check"]}
    print(k)
    for f in sorted(A - B): tot[0] += 1; f = json.loads(f); print("  - ", f["message"], "| para:", paras[f["index"]].text[:120])
    for f in sorted(B - A): tot[1] += 1; f = json.loads(f); print("  + ", f["message"], "| para:", paras[f["index"]].text[:120])
print("removed", tot[0], "added", tot[1])
