"""Query rewriting with the embedded LLM (quality.md, step 16): rewrite, then measure.

    precedent-bench query-rewrite rewrite [--budget-s 900]      # resumable; train + valid only
    precedent-bench ltr cv --seeds 5 --rewrites var/ltr/rewrites.jsonl \
        --cache var/ltr-rewrite --json var/ltr/cv-rewrite.json
    precedent-bench ltr cv --seeds 5 --json var/ltr/cv-default.json   # the baseline
    precedent-bench query-rewrite compare var/ltr/cv-default.json var/ltr/cv-rewrite.json

``rewrite`` starts the embedded Qwen2.5-Coder-1.5B (``addin-server local-llm fetch``) with
benchmarks/rewrite.prompt and writes the rewrite of every train and valid query of at most 30
words (short, medium and the few short long wordings, in that order) to a JSONL cache
(index_builder/retrieve/query_rewrite.py), keyed by model, prompt key and query text. Test
queries are never read. ``compare`` pairs two ``precedent-bench ltr cv`` reports query by query.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from addin_server.draft.prompts import PromptTemplate, load_prompt
from addin_server.llm.local import MODEL_ALIAS, MODEL_NAME, MODEL_SHA256
from index_builder.errors import InvalidRequestError
from index_builder.retrieve.query_rewrite import QueryRewriter, RewriteCache

from precedent_bench.catalogue import require, subparser
from precedent_bench.common.data import ACORD

log = logging.getLogger("query_rewrite")
MODEL_ID = f"{MODEL_NAME} sha256:{MODEL_SHA256[:12]}"
REWRITE_VARIABLES = frozenset({"query"})
# A benchmark prompt, not shipped: step 16 dropped the lever, so the server never loads it.
DEFAULT_PROMPT = Path(__file__).with_name("rewrite.prompt")
DEFAULT_CACHE = Path("var/ltr/rewrites.jsonl")
SPLITS = ("train", "valid")  # never test: rewrites are measured on train CV and valid only


def load_rewrite_prompt(path: Path = DEFAULT_PROMPT) -> PromptTemplate:
    return load_prompt(path, REWRITE_VARIABLES)


def rewrite_texts(cache: Path, prompt_path: Path = DEFAULT_PROMPT, model: str = MODEL_ID) -> dict[str, str]:
    """Query text -> rewrite for the current prompt file and model (what ltr_benchmark appends)."""
    return RewriteCache(cache).texts(model, load_rewrite_prompt(prompt_path).key)


def make_complete(client: Any, prompt: PromptTemplate, model: str,
                  max_tokens: int) -> Callable[[str], str]:
    """``complete(query) -> answer`` over a ChatClient: the query defused, greedy decoding."""
    from addin_server.llm.untrusted import neutralise

    def complete(query: str) -> str:
        messages = prompt.render(query=neutralise(query))
        return client.complete(messages, model=model, max_tokens=max_tokens, temperature=0.0).text

    return complete


def queries_to_rewrite(acord_dir: Path, max_words: int) -> list[str]:
    """Distinct train/valid query texts of at most ``max_words`` words, short wordings first."""
    from index_builder.evaluate.acord import load_acord

    acord = load_acord(acord_dir)
    out: list[str] = []
    for wording in ("short", "medium", "long"):
        for split in SPLITS:
            for query in acord.split_queries(split):
                text = query.wordings.get(wording, "")
                if text and len(text.split()) <= max_words and text not in out:
                    out.append(text)
    return out


def cmd_rewrite(args: argparse.Namespace) -> dict:
    require("llm", "query-rewrite rewrite", "the embedded model writes the rewrites")
    from addin_server.llm.client import OpenAIChatClient
    from addin_server.llm.local import LocalLLMServer
    from index_builder.settings import load_settings

    settings = load_settings(overrides={"acord_dir": args.data})
    prompt = load_rewrite_prompt(args.prompt)
    cache = RewriteCache(args.cache)
    texts = queries_to_rewrite(settings.acord_dir, settings.retrieval.expansion_max_words)
    todo = [t for t in texts if cache.get(MODEL_ID, prompt.key, t) is None]
    log.info("%d queries to rewrite (%d cached) with %s", len(todo), len(texts) - len(todo), prompt.key)
    if not todo:
        return {"rewritten": 0, "left": 0}
    server = LocalLLMServer(replace(settings.local_llm, threads=args.threads)).start()
    # Generous per-call limits: a cold prompt on two cores takes tens of seconds.
    llm = replace(server.llm_settings(settings.llm), request_timeout_s=300.0, deadline_s=600.0,
                  max_attempts=1)
    client = OpenAIChatClient(llm)
    complete = make_complete(client, prompt, MODEL_ALIAS, args.max_tokens)
    rewriter = QueryRewriter(complete, MODEL_ID, prompt.key, cache,
                             settings.retrieval.expansion_max_words)
    started, times = time.monotonic(), []
    for query in todo:
        if time.monotonic() - started > args.budget_s:
            break
        t0 = time.monotonic()
        text = rewriter.rewrite(query)
        times.append(time.monotonic() - t0)
        log.info("%.1f s  %s  ->  %s", times[-1], query, text)
    client.close()
    server.stop()
    return {"rewritten": len(times), "left": len(todo) - len(times),
            "first_s": round(times[0], 2) if times else None,
            "median_s": round(statistics.median(times), 2) if times else None,
            "median_after_first_s": round(statistics.median(times[1:]), 2) if len(times) > 1 else None,
            "max_s": round(max(times), 2) if times else None}


def paired(before: dict[str, dict], after: dict[str, dict], metric: str) -> dict:
    """Mean per-query difference (after - before) with its standard error, and the sign counts."""
    ids = sorted(set(before) & set(after))
    diffs = [after[q][metric] - before[q][metric] for q in ids]
    if not diffs:
        return {"n": 0}
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return {"n": len(diffs), "mean": round(statistics.fmean(diffs), 2), "se": round(se, 2),
            "better": sum(d > 1e-9 for d in diffs), "worse": sum(d < -1e-9 for d in diffs)}


def cmd_compare(args: argparse.Namespace) -> dict:
    """Per query, paired: the first config of each ``precedent-bench ltr cv`` report and its baselines."""
    before, after = (json.loads(Path(p).read_text()) for p in (args.before, args.after))
    out: dict = {}
    for split, key in (("train", "train_cv"), ("valid", "valid")):
        b_rows, a_rows = before["configs"][0]["per_query"][key], after["configs"][0]["per_query"][key]
        for form in b_rows:
            entry = {"ltr": {m: paired(b_rows[form], a_rows[form], m) for m in ("ndcg@5", "ndcg@10")}}
            for name in ("bm25 only", "dense only", "rrf"):
                b = before["baselines_per_query"][split][form][name]
                a = after["baselines_per_query"][split][form][name]
                entry[name] = {m: paired(b, a, m) for m in ("ndcg@5", "ndcg@10")}
            out[f"{split}/{form}"] = entry
    return out


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("step", choices=("rewrite", "compare"))
    parser.add_argument("before", nargs="?", type=Path, help="compare: baseline cv report")
    parser.add_argument("after", nargs="?", type=Path, help="compare: cv report with rewrites")
    parser.add_argument("--data", type=Path, default=ACORD)
    parser.add_argument("--prompt", type=Path, default=DEFAULT_PROMPT)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--threads", type=int, default=2, help="rewrite: llama.cpp threads")
    parser.add_argument("--max-tokens", type=int, default=96, help="rewrite: answer length cap")
    parser.add_argument("--budget-s", type=float, default=900.0, help="rewrite: stop after this long")
    parser.add_argument("--json", type=Path, help="write the report here")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.step == "compare" and not (args.before and args.after):
        raise InvalidRequestError("compare needs two cv reports: BEFORE AFTER")
    report = cmd_rewrite(args) if args.step == "rewrite" else cmd_compare(args)
    text = json.dumps(report, indent=2)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n")
    log.info("report:\n%s", text)
    return 0
