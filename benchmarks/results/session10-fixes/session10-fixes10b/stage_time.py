"""How long LLM rerank's stage takes for 10 candidates at a given per-call latency, with the
default LLM settings' concurrency (scripted OpenAI-compatible server on loopback): the basis of
PRECEDENT_RERANK_BUDGET_S's default. Run from the repository root:
``python benchmarks/results/session10-fixes/session10-fixes10b/stage_time.py``."""

import logging
import time

from addin_server.llm.client import OpenAIChatClient
from addin_server.llm.scripted import Reply, ScriptedLLMServer
from addin_server.rerank import LLMReranker, load_rerank_prompt
from index_builder.model import Clause, SearchHit
from index_builder.settings import LLMSettings, default_prompts_dir

logging.basicConfig(level=logging.WARNING)
# Ten distinct candidates, so none is answered from the cache.
HITS = [SearchHit(Clause(f"c{i}", f"Clause {i}: each party shall keep the other's information "
                                  f"confidential.", "doc"), 1.0 / i, i) for i in range(1, 11)]

for delay in (0.2, 0.5, 1.0, 2.0):
    with ScriptedLLMServer(lambda body, d=delay: Reply(content="3", delay_s=d)) as server:
        llm = LLMSettings(base_url=server.url, api_key="k", rerank_model="m", redraft_model="m")
        client = OpenAIChatClient(llm)
        reranker = LLMReranker(client, load_rerank_prompt(default_prompts_dir() / "rerank.prompt"), llm,
                               budget_s=60.0)
        started = time.monotonic()
        outcome = reranker.rerank_detailed(f"query {delay}", HITS)
        took = time.monotonic() - started
        print(f"{delay:.1f} s a call, concurrency {llm.max_concurrency}: stage {took:.2f} s "
              f"({outcome.calls} calls, status {outcome.status})")
        reranker.close()
        client.close()
