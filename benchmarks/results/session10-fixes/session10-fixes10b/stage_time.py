"""How long LLM rerank's stage takes for 10 candidates at a given per-call latency, with the
default LLM settings' concurrency (scripted OpenAI-compatible server on loopback): the basis of
PRECEDENT_RERANK_BUDGET_S's default. Run from the repository root with PYTHONPATH=. and
tests/server on the path (for its fixtures' hits)."""

import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path("tests/server").resolve()))
from server_data import relevance_responder  # noqa: E402
from test_server_rerank import hits  # noqa: E402

from addin_server.llm.client import OpenAIChatClient  # noqa: E402
from addin_server.llm.scripted import Reply, ScriptedLLMServer  # noqa: E402
from addin_server.rerank import LLMReranker, load_rerank_prompt  # noqa: E402
from index_builder.settings import LLMSettings, default_prompts_dir  # noqa: E402

logging.basicConfig(level=logging.WARNING)
TEXTS = {f"c{i}": f"Clause {i}: each party shall keep the other's information confidential." for i in range(10)}
for delay in (0.2, 0.5, 1.0, 2.0):
    with ScriptedLLMServer(relevance_responder) as server:
        server.responder = lambda body, d=delay: Reply(content="3", delay_s=d)
        llm = LLMSettings(base_url=server.url, api_key="k", rerank_model="m", redraft_model="m")
        client = OpenAIChatClient(llm)
        reranker = LLMReranker(client, load_rerank_prompt(default_prompts_dir() / "rerank.prompt"), llm,
                               budget_s=60.0)
        many = hits(*TEXTS, texts=TEXTS)  # ten distinct candidates: none cached
        started = time.monotonic()
        outcome = reranker.rerank_detailed(f"query {delay}", many)
        took = time.monotonic() - started
        print(f"{delay:.1f} s a call, concurrency {llm.max_concurrency}: stage {took:.2f} s "
              f"({outcome.calls} calls, status {outcome.status})")
        reranker.close()
        client.close()
