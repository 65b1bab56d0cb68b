"""is_heading verdicts and section maps over the agreements (both readings) and ACORD paragraphs: PYTHONPATH=<tree> python headings.py OUT.json; compare two outputs key by key."""
import sys, json
from pathlib import Path
from index_builder.ingest import read_clauses
from index_builder.reading.document import read_document, is_heading
from index_builder.reading.paragraphs import from_clauses
out={}
n=0
for path in sorted(Path('/work/shared/data/contracts').rglob('*.docx')):
    for keep in (False, True):
        cl=read_clauses(path,path.stem,'x',keep_template_text=keep)
        paras=from_clauses(cl)
        d=read_document(paras,'x')
        out[f'{path.name}|{keep}']=[[s.number,s.heading] for s in d.sections]
        out[f'{path.name}|{keep}|h']=[is_heading(p.text) for p in paras]+[is_heading(p.text, styled=True) for p in paras]
for line in open('/work/shared/data/acord/corpus.jsonl'):
    r=json.loads(line)
    for i,par in enumerate(r['text'].split('\n')):
        out[f"acord|{r['_id']}|{i}"]=[is_heading(par), is_heading(par, styled=True)]
json.dump(out,open(sys.argv[1],'w'))
