"""`precedent-bench redraft-eval`'s report in Markdown: one table per producer, then the
sound drafts' false flags and the latency of checks and operations."""

from __future__ import annotations

from typing import Any

from addin_server.draft.checks import CHECK_NAMES

COLUMNS = ("drafted", *CHECK_NAMES, "every_check", "flagged")


def cell(c: dict[str, Any]) -> str:
    """"0.75 [0.50, 1.00] 6/8", or "–" where the column does not apply to any task."""
    if not c or not c.get("n"):
        return "–"
    return f"{c['rate']:.2f} [{c['lo']:.2f}, {c['hi']:.2f}] {c['passed']}/{c['n']}"


def markdown(report: dict[str, Any]) -> str:
    lines = [f"# Redraft evaluation: {report['tasks']} tasks ({report['split']})", "",
             f"Command: `{report['command']}`  ",
             f"Prompt: `{report['prompt']}`; model: {report['model'] or 'none (--no-model)'}; "
             f"model calls {report['calls'].get('calls', 0)}, answered from the cache "
             f"{report['calls'].get('cached', 0)}.  ",
             f"Load before: `{report['load_before']}`  ", f"Load after: `{report['load_after']}`", ""]
    secs = report["model_seconds_per_task"]
    if secs.get("n"):
        lines += [f"Model seconds per task asked in this run (n={secs['n']}): median "
                  f"{secs['median_ms'] / 1000:.0f} s, p95 {secs['p95_ms'] / 1000:.0f} s, "
                  f"max {secs['max_ms'] / 1000:.0f} s.", ""]
    lines += ["Each cell: the share of tasks (drafted) or of drafts (a check: among drafts where "
              "it applies), its 95% percentile bootstrap interval over tasks, passed/n. "
              "`every_check`: no check failed; `flagged`: at least one failed (what the lawyer "
              "is warned about before Apply).", ""]
    for producer, table in report["producers"].items():
        if producer == "model" and not report["model"]:
            continue  # --no-model: nothing to show
        lines += [f"## {producer}", "", "| category | " + " | ".join(COLUMNS) + " |",
                  "|---" * (len(COLUMNS) + 1) + "|"]
        for group in sorted(table, key=lambda g: (g != "all", g)):
            lines.append(f"| {group} | " + " | ".join(cell(table[group][c]) for c in COLUMNS) + " |")
        lines.append("")
    sound = report["sound_drafts"]
    lines += [f"## Sound drafts flagged (false flags): {sound['flagged']} of {sound['judged']}", "",
              "The hand-written sound redraft of each task (benchmarks/redraft_set/references.jsonl) "
              "through the same checks; planted breaks: `precedent-bench catch-rate`.", ""]
    lines += [f"- {f['task']}: {'; '.join(f'{c}: {r}' for c, r in zip(f['checks'], f['reasons']))}"
              for f in sound["false_flags"]] or ["- none"]
    lat = report["latency"]
    lines += ["", "## Latency on this machine (ms)", "", "| what | n | median | p95 | max |",
              "|---|---|---|---|---|"]
    rows = [("checks added to /redraft (citations verified there already)", lat["checks_added_to_redraft"]),
            ("all checks, citation verification included", lat["checks_total"]),
            *((f"check {k}", v) for k, v in lat["per_check"].items()),
            *((f"operation {k}", v) for k, v in lat["per_operation"].items())]
    for name, s in rows:
        if s.get("n"):
            lines.append(f"| {name} | {s['n']} | {s['median_ms']} | {s['p95_ms']} | {s['max_ms']} |")
    return "\n".join(lines) + "\n"
