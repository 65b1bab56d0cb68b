"""Dump every reading my change can touch, over the whole corpus, as JSON lines (one per text/doc).
Run with PYTHONPATH at the tree under test: python snapshot.py OUT."""
import json, os, sys, tempfile
from pathlib import Path
from dataclasses import asdict

from index_builder.ingest import read_clauses
from index_builder.ingest.docx_reader import word_paragraphs
from index_builder.reading.paragraphs import from_pane, from_clauses, without_number
from index_builder.reading.document import read_document, written_terms, headings_in
from index_builder.reading.labels import clause_label
from index_builder.reading.numbering import typed_number
from index_builder.reading.sentences import sentence_spans
from addin_server.conform.check import check_document
from addin_server.conform.references import find

DATA = Path(os.environ.get("ONE_READER_DATA") or Path(__file__).resolve().parents[3].parent / "shared" / "data")  # ../shared/data beside the repository

out = open(sys.argv[1], "w")
def emit(kind, key, value):
    out.write(json.dumps({"k": kind, "id": key, "v": value}, sort_keys=True, default=str) + "\n")

def text_readings(t):
    typed = typed_number(t)  # session 6: the number and the sentences each text is read as
    return {"refs": find(t), "label": clause_label(t).to_dict(), "without_number": without_number(t), "headings_in": headings_in(t),
            "typed": [typed.end, typed.shown, typed.number] if typed else None, "sentences": sentence_spans(t)}

acord = [json.loads(l) for l in open(DATA / "acord" / "corpus.jsonl")]
docs = sorted((DATA / "contracts").rglob("*.docx")) + [(DATA / "acord" / "ACORD_readme.docx")]
texts = []
tmp = Path(tempfile.mkdtemp())
for rec in acord:
    texts.append((rec["_id"], rec["text"]))
    # the ACORD texts through the index's .txt ingest (typed numbers, headings, outline)
    p = tmp / f"{rec['_id']}.txt"; p.write_text(rec["text"])
    try:
        cl = read_clauses(p, rec["_id"], p.name)
        emit("ingest-txt", rec["_id"], [[c.section, c.heading, c.text, c.metadata] for c in cl])
    except Exception as e:
        emit("ingest-txt", rec["_id"], repr(e))
for d in docs:
    key = d.relative_to(d.parents[1]).as_posix()
    cl = read_clauses(d, key, key)
    emit("ingest-docx", key, [[c.section, c.heading, c.text, c.metadata] for c in cl])
    for i, c in enumerate(cl):
        texts.append((f"{key}#{i}", c.text))
        emit("label-h", f"{key}#{i}", clause_label(c.text, c.heading).to_dict())
    emit("paras-index", key, [[p.number, p.text, p.in_table] for p in from_clauses(cl)])  # session 6
    doc_from_index = read_document(from_clauses(cl), key)
    emit("refs", key, [doc_from_index.reference_word, read_document(from_pane(word_paragraphs(d)), key).reference_word])  # session 6
    emit("doc-index", key, [asdict(x) for x in doc_from_index.sections] + [asdict(x) for x in doc_from_index.definitions])
    paras = from_pane(word_paragraphs(d))
    doc = read_document(paras, key)
    emit("doc-pane", key, {"sections": [asdict(x) for x in doc.sections], "defs": [asdict(x) for x in doc.definitions],
                           "parties": [asdict(x) for x in doc.parties], "written": written_terms(paras, doc),
                           "check": check_document(paras, doc)})
    for p in paras:
        texts.append((f"{key}@{p.index}", p.text))
for key, t in texts:
    emit("text", key, text_readings(t))
    for j, line in enumerate(t.splitlines()):
        if line.strip() and line != t:
            emit("line", f"{key}/{j}", text_readings(line))
