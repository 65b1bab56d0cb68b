"""Exit while the batcher's thread compiles the OpenVINO query model's fixed shapes."""
import logging, sys, time
logging.basicConfig(level=logging.INFO)
from index_builder.settings import load_settings
from index_builder.index.batcher import query_embedder
s = load_settings({"PRECEDENT_QUERY_EMBEDDING": "openvino-int8", "PRECEDENT_QUERY_DEADLINE_S": "0.05"}, {}).embedding
t = time.time()
e = query_embedder(s)  # the server's deadline: the first search gives up while the compile runs
print("loaded", e.model_id, round(time.time() - t, 1), flush=True)
try:
    e.embed(["limitation of liability cap"])
    print("embedded", flush=True)
except Exception as exc:
    print("gave up:", type(exc).__name__, round(time.time() - t, 1), flush=True)
    sys.exit(2)
