import json, os, sys
B, A = sys.argv[1], sys.argv[2]
for n in sorted(os.listdir(A)):
    if not os.path.exists(f'{A}/{n}/drafts.jsonl') or not os.path.exists(f'{B}/{n}/drafts.jsonl'): continue
    rb = [json.loads(l) for l in open(f'{B}/{n}/drafts.jsonl')]; ra = [json.loads(l) for l in open(f'{A}/{n}/drafts.jsonl')]
    for x, y in zip(rb, ra):
        if (x['flagged'], x['failed'], x['not_checked'], x['shown_passed'], x['named']) != (y['flagged'], y['failed'], y['not_checked'], y['shown_passed'], y['named']) or x['reasons'] != y['reasons']:
            print(f"{n} {y['draft_id']} sound={y['sound']} fault={y['fault']} | {x['failed']}/{x['not_checked']} -> {y['failed']}/{y['not_checked']} named {x['named']}->{y['named']}")
            for k in set(x['reasons']) | set(y['reasons']):
                if x['reasons'].get(k) != y['reasons'].get(k):
                    print(f"    {k}: {str(x['reasons'].get(k))[:200]}\n      -> {str(y['reasons'].get(k))[:300]}")
