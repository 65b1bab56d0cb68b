"""Scoring the drafting set's answers against its labels, outside the code under test.

The answers come from POST /redraft (precedent_bench/drafting/drafting_set.py); the labels (sound or broken,
the one primary fault, the part it concerns) are read here only.

A draft is **flagged** when the server's response fails at least one check. A broken draft's
fault is **named** when a check that reports that kind of fault failed. The schema's fault
names (/work/coord/drafting-schema.md) map to the product's checks (docs/redraft-checks.md):

| fault | checks that name it |
|---|---|
| unchanged | changed |
| not_done | instruction, changed |
| partly_done | instruction |
| wrong_direction | instruction (the instruction moves a role), meaning (it does not) |
| wrong_value | instruction |
| legalese_left | instruction (its plain-English part) |
| uncited_addition | additions |
| reversed_meaning | meaning |
| unsupported_citation | support |
| bad_marker | markers |
| misquote | quotations |
| undefined_term | defined_terms |
| too_long | length |

"Named alone" is stricter: the right check failed and no other did.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Sequence

FAULT_CHECKS: dict[str, frozenset[str]] = {
    "unchanged": frozenset({"changed"}),
    "not_done": frozenset({"instruction", "changed"}),
    "partly_done": frozenset({"instruction"}),
    "wrong_direction": frozenset({"instruction", "meaning"}),
    "wrong_value": frozenset({"instruction"}),
    "legalese_left": frozenset({"instruction"}),
    "uncited_addition": frozenset({"additions"}),
    "reversed_meaning": frozenset({"meaning"}),
    "unsupported_citation": frozenset({"support"}),
    "bad_marker": frozenset({"markers"}),
    "misquote": frozenset({"quotations"}),
    "undefined_term": frozenset({"defined_terms"}),
    "too_long": frozenset({"length"}),
}


def failed_checks(answer: dict[str, Any]) -> list[str]:
    return [c.get("name", "") for c in answer.get("checks") or [] if c.get("passed") is False]


def unchecked(answer: dict[str, Any]) -> list[str]:
    """The checks the response says it could not make ("not checked"), and "instruction" where a part
    of the instruction is said not checked (a server before the check statuses says it only so)."""
    names = [c.get("name", "") for c in answer.get("checks") or [] if c.get("status") == "not_checked"]
    if any(p.get("status") == "unchecked" for p in answer.get("parts") or []) and "instruction" not in names:
        names.append("instruction")
    return names


def shown_passed(status: int, answer: dict[str, Any]) -> bool:
    """What the pane shows as checked and passed: answered, no check failed, none said not checked."""
    return status == 200 and not failed_checks(answer) and not unchecked(answer)


def score(tasks: Sequence[dict[str, Any]], answers: Sequence[dict[str, Any]]
          ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(summary, one scored row per draft)."""
    labels = {d["draft_id"]: (t, d) for t in tasks for d in t["drafts"]}
    rows = []
    for a in answers:
        task, draft = labels[a["draft_id"]]
        failed = failed_checks(a["answer"])
        fault = draft["faults"][0] if draft["faults"] else None
        wanted = FAULT_CHECKS.get(fault["fault"], frozenset()) if fault else frozenset()
        rows.append({
            "task_id": task["task_id"], "category": task["category"], "draft_id": draft["draft_id"],
            "kind": draft["kind"], "sound": draft["sound"], "fault": fault["fault"] if fault else None,
            "part": fault.get("part") if fault else None, "status": a["status"],
            "flagged": bool(failed) or a["status"] != 200, "failed": failed,
            "not_checked": unchecked(a["answer"]), "shown_passed": shown_passed(a["status"], a["answer"]),
            "named": bool(wanted & set(failed)), "named_alone": bool(failed) and set(failed) <= wanted,
            "reasons": {c["name"]: c.get("reason", "") for c in a["answer"].get("checks") or []
                        if c.get("passed") is False},
            "parts_said": a["answer"].get("parts"),
            "error": a["answer"].get("error") or a["answer"].get("message") if a["status"] != 200 else None,
        })
    return summarise(rows), rows


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    broken = [r for r in rows if not r["sound"]]
    sound = [r for r in rows if r["sound"]]
    by_fault: dict[str, Counter[str]] = defaultdict(Counter)
    for r in broken:
        c = by_fault[r["fault"]]
        c["drafts"] += 1
        c["flagged"] += r["flagged"]
        c["named"] += r["named"]
        c["named_alone"] += r["named_alone"]
    by_category: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        c = by_category[r["category"]]
        key = "sound" if r["sound"] else "broken"
        c[key] += 1
        c[f"{key}_flagged"] += r["flagged"]
        if not r["sound"]:
            c["named"] += r["named"]
    false_by_check = Counter(name for r in sound for name in r["failed"])
    return {
        "broken": len(broken), "broken_flagged": sum(r["flagged"] for r in broken),
        "broken_named": sum(r["named"] for r in broken),
        "broken_named_alone": sum(r["named_alone"] for r in broken),
        # A broken draft neither flagged nor said "not checked": shown to the lawyer as checked and passed.
        "broken_shown_passed": sum(r["shown_passed"] for r in broken),
        "broken_not_checked": sum(1 for r in broken if not r["flagged"] and r["not_checked"]),
        "sound": len(sound), "sound_flagged": sum(r["flagged"] for r in sound),
        "sound_not_checked": sum(1 for r in sound if not r["flagged"] and r["not_checked"]),
        "sound_shown_passed": sum(r["shown_passed"] for r in sound),
        "sound_flagged_by_check": dict(false_by_check.most_common()),
        "errors": sum(1 for r in rows if r["status"] != 200),
        "by_fault": {k: dict(v) for k, v in sorted(by_fault.items())},
        "by_category": {k: dict(v) for k, v in sorted(by_category.items())},
    }


def operations_rows(tasks: Sequence[dict[str, Any]], answers: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per task for review: what the operation did (or why it declined), with the
    labelled parts a reviewer judges it against (no verdict)."""
    by_id = {t["task_id"]: t for t in tasks}
    out = []
    for a in answers:
        task = by_id[a["task_id"]]
        answer = a["answer"]
        producer = answer.get("producer") or {}
        accepted = a["status"] == 200 and producer.get("kind") == "operation"
        out.append({
            "task_id": task["task_id"], "category": task["category"],
            "instruction": task["instruction"], "clause": task["clause"],
            "accepted": accepted, "status": a["status"],
            "output": answer.get("redraft") if accepted else None,
            "operation": producer.get("operation"), "label": producer.get("label"),
            "parts_said": answer.get("parts"),
            "changes": answer.get("changes"), "notes": answer.get("notes"),
            "checks": answer.get("checks"), "checks_failed": answer.get("checks_failed"),
            "declined": None if accepted else (answer.get("error") or answer.get("message") or answer),
            "shown_passed": accepted and shown_passed(a["status"], answer),
            "model_called": a.get("model_called", False),
            "labelled_parts": [{"kind": p["kind"], "asks": p["asks"], "done_when": p["done_when"],
                                "value": p.get("value")} for p in task["parts"]],
            "precedents": [p["text"] for p in task["precedents"]],
            "document": task.get("document"),
        })
    return out


def blind_rows(ops: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The accepted operations for a reviewer who has not seen the labels: what the lawyer gave
    (clause, instruction, precedents, the document's parties and terms), the draft and the lines
    the product showed with it. No category, part, done_when or verdict."""
    return [{"task_id": o["task_id"], "clause": o["clause"], "instruction": o["instruction"],
             "precedents": o["precedents"], "document": {k: (o.get("document") or {}).get(k) for k in ("parties", "terms")},
             "output": o["output"], "producer": o["label"],
             "parts_said": [{"part": p.get("label"), **{k: p.get(k) for k in ("status", "reason", "by")}}
                            for p in o.get("parts_said") or []],
             "checks": [f"{c['name']}: {'passed' if c['passed'] else 'FAILED' if c['passed'] is False else 'not checked' if c.get('status') == 'not_checked' else 'n/a'}: {c['reason']}"
                        for c in o.get("checks") or []],
             "changes": o.get("changes"), "product_notes": o.get("notes")}
            for o in ops if o["accepted"]]


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} = {n / d:.1%}" if d else "-"


def markdown(summary: dict[str, Any], ops: Sequence[dict[str, Any]], meta: dict[str, Any]) -> str:
    s = summary
    accepted = [o for o in ops if o["accepted"]]
    passed = [o for o in accepted if not o["checks_failed"]]
    lines = [f"# Drafting set, {meta['split']}: {meta['tasks']} tasks, {meta['drafts']} planted drafts", "",
             f"Through POST /api/v1/redraft (Flask test client, scripted model on loopback). "
             f"Commit {meta['commit']}, {meta['finished_utc']}, {meta['seconds']} s, "
             f"load {meta.get('load_average')}.", "",
             "| | figure |", "|---|---|",
             f"| broken drafts flagged | {_pct(s['broken_flagged'], s['broken'])} |",
             f"| broken drafts, the right fault named | {_pct(s['broken_named'], s['broken'])} |",
             f"| broken drafts, the right fault named alone | {_pct(s['broken_named_alone'], s['broken'])} |",
             f"| broken drafts neither flagged nor said not checked (shown passed) | {_pct(s['broken_shown_passed'], s['broken'])} |",
             f"| broken drafts not flagged but said not checked | {s['broken_not_checked']} |",
             f"| sound drafts flagged | {_pct(s['sound_flagged'], s['sound'])} |",
             f"| sound drafts not flagged but said not checked | {s['sound_not_checked']} |",
             f"| requests refused (not 200) | {s['errors']} |",
             f"| operations accepted | {len(accepted)}/{len(ops)} |",
             f"| operation drafts passing every check | {len(passed)}/{len(accepted)} |",
             f"| operation drafts shown passed (no check failed or not checked) | "
             f"{sum(o['shown_passed'] for o in accepted)}/{len(accepted)} |", "",
             "## Broken drafts by fault", "",
             "| fault | drafts | flagged | right fault named | named alone |", "|---|---|---|---|---|"]
    for fault, c in s["by_fault"].items():
        lines.append(f"| {fault} | {c['drafts']} | {c.get('flagged', 0)} | {c.get('named', 0)} | "
                     f"{c.get('named_alone', 0)} |")
    lines += ["", "## By category", "", "| category | broken flagged | right fault | sound flagged |",
              "|---|---|---|---|"]
    for cat, c in s["by_category"].items():
        lines.append(f"| {cat} | {c.get('broken_flagged', 0)}/{c.get('broken', 0)} | {c.get('named', 0)}/"
                     f"{c.get('broken', 0)} | {c.get('sound_flagged', 0)}/{c.get('sound', 0)} |")
    lines += ["", "Sound drafts flagged, by check: " + (", ".join(
        f"{k} {v}" for k, v in s["sound_flagged_by_check"].items()) or "none"), ""]
    return "\n".join(lines) + "\n"
