"""Copy RUN to FINAL and replace the rows of each re-run task (SUB/<task>/) in its set."""
import json, os, shutil, sys
run, sub, final = sys.argv[1:4]
where = {"g-multi-05": "drafting-g_heldout", "n-plain-03": "drafting-n_heldout", "p-carve_out-02": "drafting-p_heldout"}
shutil.rmtree(final, ignore_errors=True); shutil.copytree(run, final)
for task, s in where.items():
    for f in ("drafts.jsonl", "operations.jsonl"):
        new = [l for l in open(f"{sub}/{task}/{f}")]
        old = [l for l in open(f"{final}/{s}/{f}") if json.loads(l).get("task_id") != task]
        assert len(old) + len(new) == sum(1 for _ in open(f"{final}/{s}/{f}")), (task, f)
        open(f"{final}/{s}/{f}", "w").writelines(old + new)
