"""The exact chat messages /redraft sends for the trial's requests (captured, never sent)."""
import json, sys
from addin_server.llm import client as llm_client
from index_builder.errors import LLMUnavailableError
captured = []
def complete(self, messages, **kw):
    captured.append({"messages": list(messages), "max_tokens": kw.get("max_tokens")})
    raise LLMUnavailableError("captured")
llm_client.OpenAIChatClient.complete = complete
from index_builder.settings import load_settings
from addin_server.service import build_service
from addin_server.web.app import create_app
idx = sys.argv[1]
s = load_settings({"PRECEDENT_INDEX_DIR": idx, "PRECEDENT_LLM_BASE_URL": "http://127.0.0.1:9/v1",
                   "PRECEDENT_LLM_REDRAFT_MODEL": "local", "PRECEDENT_LLM_RERANK_MODEL": "local",
                   "PRECEDENT_LOCAL_LLM": "off", "PRECEDENT_AUDIT": "off",
                   "PRECEDENT_EMBEDDING_ONNX_DIR": "/tmp/trial8/precedent/var/models/onnx"})
app = create_app(s, build_service(s))
c = json.load(open("/tmp/trial8/req/clauses.json"))
client = app.test_client()
for text, ins in [(c["coc"], "Give the termination right to the Customer instead"),
                  (c["lol"], "Add a carve-out for fraud and wilful misconduct")]:
    r = client.post("/api/v1/redraft", json={"text": text, "instructions": ins})
    print(r.status_code, file=sys.stderr)
json.dump(captured, open("/tmp/fixes9/captured.json", "w"))
print(len(captured), [sum(len(m["content"]) for m in x["messages"]) for x in captured])
