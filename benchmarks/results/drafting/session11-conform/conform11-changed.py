"""Every draft whose checks changed between two runs: broken that gained or lost a flag, sound newly flagged."""
import json, glob, sys
a, b = sys.argv[1], sys.argv[2]
for f in sorted(glob.glob(f'{b}/*/drafts.jsonl')):
    s = f.split('/')[-2]
    base = {json.loads(l)['draft_id']: json.loads(l) for l in open(f'{a}/{s}/drafts.jsonl')}
    for l in open(f):
        d = json.loads(l); o = base[d['draft_id']]
        if (d['failed'], d['not_checked'], d['named']) != (o['failed'], o['not_checked'], o['named']):
            tag = ('SOUND newly flagged' if d['flagged'] and not o['flagged'] else 'sound') if d['sound'] else \
                  ('broken GAINED flag' if d['flagged'] and not o['flagged'] else 'broken LOST flag' if o['flagged'] and not d['flagged'] else 'broken')
            new = {k: v[:140] for k, v in d['reasons'].items() if o['reasons'].get(k) != v}
            print(f"{s} {d['draft_id']} [{tag}] fault={d['fault']} failed {o['failed']} -> {d['failed']} named {o['named']} -> {d['named']} {new}")
