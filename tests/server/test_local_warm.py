"""The embedded model is warmed with the redraft prompt's common start before workers serve
(session 8: the first model redraft after start-up timed out; later ones, their start cached,
did not). Against a loopback stand-in for llama.cpp's OpenAI-compatible route."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

from addin_server.draft.redraft import Redrafter
from addin_server.llm.local import LocalLLMServer
from addin_server.llm.tokens import TokenCounter
from addin_server.prompt_set import load_prompt_set
from addin_server.service import warm_up_messages
from index_builder.model import Clause
from index_builder.settings import LocalLLMSettings, load_settings


class Llama(BaseHTTPRequestHandler):
    bodies: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802
        self.bodies.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        data = json.dumps({"choices": [{"message": {"content": "x"}}], "timings": {"prompt_n": 271}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def llama() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Llama)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Llama.bodies = []
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_the_warm_up_is_the_start_every_redraft_prompt_shares(llama: int, tmp_path: Path) -> None:
    settings = load_settings({})
    local = LocalLLMServer(LocalLLMSettings(models_dir=tmp_path, port=llama))
    llm = local.llm_settings(settings.llm)
    messages = warm_up_messages(settings, llm)
    assert local.warm(messages) is not None
    [sent] = Llama.bodies
    assert (sent["max_tokens"], sent["cache_prompt"], sent["messages"]) == (1, True, messages)
    # A real redraft of the usual three precedents starts with exactly these words: its system
    # turn whole, its user turn up to the first precedent.
    prompts = load_prompt_set(settings.server.prompts_dir, llm, TokenCounter(llm.encoding))
    precedents = [Clause(f"p{n}", f"The Supplier shall give {n}0 days' notice.", f"doc{n}") for n in (1, 2, 3)]
    real, used, _, _ = Redrafter(None, prompts.redraft, llm).build_messages(
        "The Vendor may end this Agreement on thirty days' notice.", precedents, "Make it mutual")
    assert len(used) == settings.server.redraft_precedents == 3
    assert real[0] == messages[0]
    opening = messages[1]["content"].split("\n\n\n")[0]
    assert opening == "Precedents:" and real[1]["content"].startswith(opening + "\n\n<precedent n=\"1\"")


def test_a_model_that_does_not_answer_the_warm_up_is_served_anyway(tmp_path: Path) -> None:
    local = LocalLLMServer(LocalLLMSettings(models_dir=tmp_path, port=9))
    assert local.warm([{"role": "user", "content": "hi"}], timeout_s=2) is None
