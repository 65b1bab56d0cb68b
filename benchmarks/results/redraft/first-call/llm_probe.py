"""Direct probe of the embedded model (quickstart settings): what a first call pays.

python llm_probe.py [warm]   (PYTHONPATH = a tree; trial8's venv)"""
import json, os, sys, time, urllib.request
from index_builder.settings import load_settings
from addin_server.llm.local import LocalLLMServer
cap = json.load(open("/tmp/fixes9/captured.json"))
first, second = cap[10]["messages"], cap[21]["messages"]
s = load_settings({"PRECEDENT_LOCAL_LLM_DIR": "/tmp/trial8/precedent/var/models", "PRECEDENT_LOCAL_LLM_THREADS": os.environ.get("THREADS", "2")}).local_llm
print("threads", s.threads, flush=True)
t = time.monotonic()
server = LocalLLMServer(s).start()
out = {"start_s": round(time.monotonic() - t, 1), "load": os.getloadavg()[0]}
def ask(name, messages, max_tokens=400):
    body = json.dumps({"model": "local", "messages": messages, "max_tokens": max_tokens, "temperature": 0.0}).encode()
    req = urllib.request.Request(server.base_url + "/chat/completions", data=body, headers={"Content-Type": "application/json"})
    t = time.monotonic()
    with urllib.request.urlopen(req, timeout=900) as r:
        data = json.loads(r.read())
    tm = data.get("timings") or {}
    out[name] = {"s": round(time.monotonic() - t, 1), "prompt_n": tm.get("prompt_n"), "cache_n": tm.get("cache_n"),
                 "prompt_ms": round(tm.get("prompt_ms", 0)), "predicted_n": tm.get("predicted_n"),
                 "predicted_ms": round(tm.get("predicted_ms", 0)), "load": round(os.getloadavg()[0], 1)}
    print(name, out[name], flush=True)
try:
    steps = sys.argv[1:] or ["tiny", "first", "first_again", "second"]
    for step in steps:
        if step == "tiny":
            ask("tiny", [{"role": "user", "content": "Say OK."}], 1)
        elif step == "warm":
            from addin_server.service import warm_up_messages
            full = load_settings({})
            t = time.monotonic()
            secs = server.warm(warm_up_messages(full, server.llm_settings(full.llm)), timeout_s=900)
            out["warm"] = {"s": round(time.monotonic() - t, 1), "load": round(os.getloadavg()[0], 1)}
            print("warm", out["warm"], flush=True)
        elif step == "gen":
            ask("gen", [{"role": "user", "content": "Write a limitation of liability clause for a software licence."}], 56)
        elif step == "prefix":
            ask("prefix", [first[0], {"role": "user", "content": "Precedents:\n\n"}], 1)
        elif step == "first":
            ask("first", first)
        elif step == "first_again":
            ask("first_again", first)
        elif step == "second":
            ask("second", second)
finally:
    server.stop()
    print(json.dumps(out), flush=True)
