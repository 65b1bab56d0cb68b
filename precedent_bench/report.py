"""An A/B report in one folder: report.md, report.html and the plots they show.

Plots are made with matplotlib (headless Agg backend): per-group deltas with their
intervals, and the score distributions of both prompts. The report carries the verdict,
the per-category table, the prompts' diff and the five worst items of each prompt with
what the model wrote, so the reader sees why a score moved.
"""

from __future__ import annotations

import difflib
import json
import logging
import math
from dataclasses import asdict
from pathlib import Path
from typing import Sequence

from precedent_bench.ab import ABRun, ItemRun
from precedent_bench.stats import Delta

log = logging.getLogger(__name__)

WORST = 5
_COLOURS = {"better": "#2e7d32", "worse": "#c62828", "same": "#757575", "too few": "#bdbdbd"}


def write_report(ab: ABRun, deltas: Sequence[Delta], out: Path) -> Path:
    """Write the report folder; returns the HTML file's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    plot_deltas(ab, deltas, out / "deltas.png")
    plot_distributions(ab, out / "distributions.png")
    context = _context(ab, deltas)
    (out / "report.md").write_text(_markdown(context), encoding="utf-8")
    html = out / "report.html"
    html.write_text(_html(context), encoding="utf-8")
    (out / "results.json").write_text(json.dumps(_results(ab, deltas), indent=1) + "\n",
                                      encoding="utf-8")
    log.info("Report written to %s", out)
    return html


def plot_deltas(ab: ABRun, deltas: Sequence[Delta], path: Path) -> None:
    """Horizontal bars of B - A per group, with the interval as error bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(reversed(deltas))  # "all" at the top
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(rows) + 1.4), dpi=110)
    ys = range(len(rows))
    values = [d.delta for d in rows]
    errors = [[max(d.delta - d.low, 0) for d in rows], [max(d.high - d.delta, 0) for d in rows]]
    ax.barh(ys, values, xerr=errors, color=[_COLOURS[d.direction] for d in rows],
            capsize=3, height=0.6, error_kw={"elinewidth": 1})
    ax.set_yticks(list(ys), [f"{d.group} (n={d.n})" for d in rows])
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(f"B - A, {ab.metric} ({deltas[0].confidence:.0%} paired bootstrap interval)")
    ax.set_title(f"{ab.kind}: {ab.prompt_b.key} vs {ab.prompt_a.key}", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_distributions(ab: ABRun, path: Path) -> None:
    """Left: each prompt's item scores; right: the paired differences, sorted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    a = [r.score for r in ab.runs_a]
    b = [r.score for r in ab.runs_b]
    diffs = sorted(p.delta for p in ab.paired())
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), dpi=110)
    top = max(a + b + [1.0])
    bins = [top * i / 20 for i in range(21)]
    left.hist(a, bins=bins, alpha=0.55, label=f"A {ab.prompt_a.key}", color="#1565c0")
    left.hist(b, bins=bins, alpha=0.55, label=f"B {ab.prompt_b.key}", color="#ef6c00")
    left.set_xlabel(ab.metric)
    left.set_ylabel("items")
    left.legend(fontsize=7)
    left.set_title("score per item", fontsize=9)
    right.bar(range(len(diffs)), diffs, color=["#c62828" if d < 0 else "#2e7d32" for d in diffs],
              width=1.0)
    right.axhline(0, color="black", linewidth=0.8)
    right.set_xlabel("items, sorted by B - A")
    right.set_ylabel("B - A")
    right.set_title("paired differences", fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def prompt_diff(ab: ABRun) -> str:
    a = Path(ab.prompt_a.path).read_text("utf-8").splitlines()
    b = Path(ab.prompt_b.path).read_text("utf-8").splitlines()
    return "\n".join(difflib.unified_diff(a, b, f"A: {ab.prompt_a.path}", f"B: {ab.prompt_b.path}",
                                          lineterm="", n=2)) or "(the prompt files are identical)"


def worst(runs: Sequence[ItemRun], other: Sequence[ItemRun], n: int = WORST) -> list[dict]:
    """The n lowest-scoring items of one prompt, with the other prompt's score beside."""
    others = {r.item_id: r.score for r in other}
    ranked = sorted(runs, key=lambda r: (r.score, r.item_id))[:n]
    return [{"item": r.item_id, "category": r.category, "score": r.score,
             "other": others.get(r.item_id, math.nan), "notes": list(r.notes),
             "output": r.output} for r in ranked]


def _context(ab: ABRun, deltas: Sequence[Delta]) -> dict:
    return {"ab": ab, "deltas": deltas, "verdict": ab.verdict(deltas), "diff": prompt_diff(ab),
            "worst_a": worst(ab.runs_a, ab.runs_b), "worst_b": worst(ab.runs_b, ab.runs_a),
            "fmt": f".{ab.digits}f"}


def _results(ab: ABRun, deltas: Sequence[Delta]) -> dict:
    return {"kind": ab.kind, "metric": ab.metric, "model": ab.model, "subset": ab.subset,
            "prompt_a": ab.prompt_a.key, "prompt_b": ab.prompt_b.key, "calls": ab.calls,
            "verdict": ab.verdict(deltas), "deltas": [asdict(d) | {"direction": d.direction}
                                                     for d in deltas],
            "items": [{"item": p.item_id, "category": p.category, "a": p.a, "b": p.b}
                      for p in ab.paired()], "warnings": ab.warnings}


def _markdown(c: dict) -> str:
    ab, f = c["ab"], c["fmt"]
    lines = [f"# {ab.kind} A/B: {ab.prompt_b.key} against {ab.prompt_a.key}", "",
             f"**{c['verdict']}**", "",
             f"- A: `{ab.prompt_a.path}` ({ab.prompt_a.key})",
             f"- B: `{ab.prompt_b.path}` ({ab.prompt_b.key})",
             f"- model: {ab.model}; items: {ab.subset}",
             f"- score: {ab.metric}; model calls {ab.calls.get('calls', 0)}, "
             f"answered from the cache {ab.calls.get('cached', 0)}", ""]
    for label, found in ab.warnings.items():
        lines += [f"- prompt check ({label}): {w}" for w in found]
    lines += ["", "| group | n | A | B | B - A [interval] | verdict |", "|---|---|---|---|---|---|"]
    for d in c["deltas"]:
        lines.append(f"| {d.group} | {d.n} | {d.mean_a:{f}} | {d.mean_b:{f}} | "
                     f"{d.interval(ab.digits)} | {d.direction} |")
    lines += ["", "![per-group deltas](deltas.png)", "", "![score distributions](distributions.png)",
              "", "## The prompts' diff", "", "```diff", c["diff"], "```"]
    for label, rows in (("A", c["worst_a"]), ("B", c["worst_b"])):
        lines += ["", f"## The {len(rows)} worst items under {label}", ""]
        for r in rows:
            other = "B" if label == "A" else "A"
            lines += [f"### {r['item']} ({r['category']}): {r['score']:{f}} "
                      f"({other}: {r['other']:{f}})", ""]
            lines += [f"- {n}" for n in r["notes"]] + ([""] if r["notes"] else [])
            lines += ["```", r["output"].strip() or "(empty answer)", "```"]
    return "\n".join(lines) + "\n"


_TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ ab.kind }} A/B: {{ ab.prompt_b.key }} vs {{ ab.prompt_a.key }}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; max-width: 1000px; margin: 2em auto; color: #222; padding: 0 1em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #ddd; }
.verdict { font-size: 1.1em; padding: .6em .9em; background: #f3f6fb; border-left: 4px solid #1565c0; }
table { border-collapse: collapse; margin: 1em 0; } td, th { padding: .25em .7em; border-bottom: 1px solid #e4e4e4; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.better { color: #2e7d32; font-weight: 600; } .worse { color: #c62828; font-weight: 600; } .same, .too.few { color: #666; }
pre { background: #fafafa; border: 1px solid #e4e4e4; padding: .7em; white-space: pre-wrap; font-size: 12.5px; }
.diff .add { color: #2e7d32; } .diff .del { color: #c62828; } .diff .hunk { color: #6a1b9a; }
.warn { color: #8d6e00; } img { max-width: 100%; } .item h3 { font-size: 1em; margin-bottom: .2em; }
</style></head><body>
<h1>{{ ab.kind }} A/B: <code>{{ ab.prompt_b.key }}</code> against <code>{{ ab.prompt_a.key }}</code></h1>
<p class="verdict">{{ verdict }}</p>
<ul>
<li>A: <code>{{ ab.prompt_a.path }}</code> · B: <code>{{ ab.prompt_b.path }}</code></li>
<li>model: {{ ab.model }}</li><li>items: {{ ab.subset }}</li>
<li>score: {{ ab.metric }} · model calls {{ ab.calls.get('calls', 0) }}, answered from the cache {{ ab.calls.get('cached', 0) }}</li>
{% for label, found in ab.warnings.items() %}{% for w in found %}<li class="warn">prompt check ({{ label }}): {{ w }}</li>{% endfor %}{% endfor %}
</ul>
<table><tr><th>group</th><th>n</th><th>A</th><th>B</th><th>B − A [interval]</th><th>verdict</th></tr>
{% for d in deltas %}<tr><td>{{ d.group }}</td><td>{{ d.n }}</td><td>{{ format(d.mean_a, fmt) }}</td><td>{{ format(d.mean_b, fmt) }}</td>
<td>{{ d.interval(ab.digits) }}</td><td class="{{ d.direction }}">{{ d.direction }}</td></tr>
{% endfor %}</table>
<img src="deltas.png" alt="B minus A per group with intervals">
<img src="distributions.png" alt="score distributions of both prompts">
<h2>The prompts' diff</h2>
<pre class="diff">{% for line in diff.splitlines() %}<span class="{{ 'hunk' if line.startswith('@@') else 'add' if line.startswith('+') else 'del' if line.startswith('-') else '' }}">{{ line }}</span>
{% endfor %}</pre>
{% for label, rows in (("A", worst_a), ("B", worst_b)) %}
<h2>The {{ rows|length }} worst items under {{ label }}</h2>
{% for r in rows %}<div class="item"><h3>{{ r.item }} ({{ r.category }}): {{ format(r.score, fmt) }}
<small>({{ "B" if label == "A" else "A" }}: {{ format(r.other, fmt) }})</small></h3>
{% if r.notes %}<ul>{% for n in r.notes %}<li>{{ n }}</li>{% endfor %}</ul>{% endif %}
<pre>{{ r.output.strip() or "(empty answer)" }}</pre></div>{% endfor %}
{% endfor %}
</body></html>
"""


def _html(c: dict) -> str:
    from jinja2 import Environment

    env = Environment(autoescape=True)
    return env.from_string(_TEMPLATE).render(**c, format=format)
