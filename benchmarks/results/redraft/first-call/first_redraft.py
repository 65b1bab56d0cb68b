"""First model redraft after start-up, in the quickstart configuration (embedded model, 2 workers).

python first_redraft.py TREE LABEL [--cold]
Starts `addin-server serve` from TREE (trial8 venv: xllamacpp + the verified model) on a fresh
copy of the quickstart index, times launch -> /health answering, then the first model redraft
and a second one, then stops the server it started (by its pid).
"""
import json, os, shutil, signal, subprocess, sys, time, urllib.request, urllib.error

tree, label = sys.argv[1], sys.argv[2]
cold = "--cold" in sys.argv
PY = "/tmp/trial8/precedent/.venv/bin/python"
MODELS = "/tmp/trial8/precedent/var/models"
work = f"/tmp/fixes9/run-{label}"
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
shutil.copytree("/tmp/trial8/precedent/var/index", f"{work}/index")
if cold:  # the model's pages out of the page cache, as after a reboot
    fd = os.open(f"{MODELS}/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)
clauses = json.load(open("/tmp/trial8/req/clauses.json"))
port = 18000 + os.getpid() % 1000
env = {**os.environ, "PYTHONPATH": tree, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
       "PRECEDENT_LOCAL_LLM_DIR": MODELS, "PRECEDENT_LOCAL_LLM": "on",
       "PRECEDENT_EMBEDDING_ONNX_DIR": "/tmp/trial8/precedent/var/models/onnx"}
env.pop("PRECEDENT_LLM_BASE_URL", None)
log = open(f"{work}/server.log", "wb")
began = time.monotonic()
server = subprocess.Popen(["nice", "-n", "15", PY, "-m", "addin_server.cli", "serve", "--index", f"{work}/index",
                           "--host", "127.0.0.1", "--port", str(port)], cwd=work, env=env, stdout=log,
                          stderr=subprocess.STDOUT, start_new_session=True)
out = {"label": label, "tree": tree, "cold": cold, "load_before": os.getloadavg()[0]}

def call(route, body=None, timeout=400):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/{route}",
                                 data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json"})
    t = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            code, data = r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        code, data = e.code, json.loads(e.read() or b"{}")
    return code, round(time.monotonic() - t, 1), data

try:
    while True:
        try:
            code, _, health = call("health", timeout=5)
            if code == 200 and (health.get("server") or {}).get("serving", 0) >= (health.get("server") or {}).get("processes", 1):
                break
        except (OSError, ValueError):
            pass
        if server.poll() is not None or time.monotonic() - began > 900:
            raise SystemExit(f"server did not start: {open(f'{work}/server.log').read()[-2000:]}")
        time.sleep(0.5)
    out["health_s"] = round(time.monotonic() - began, 1)
    out["health_llm"] = {k: health["llm"].get(k) for k in ("reachable", "warm", "warming") if k in health["llm"]}
    for name, text, ins in [("coc_customer", clauses["coc"], "Give the termination right to the Customer instead"),
                            ("lol_fraud", clauses["lol"], "Add a carve-out for fraud and wilful misconduct"),
                            ("coc_customer_again", clauses["coc"], "Give the termination right to the Customer instead")]:
        code, secs, data = call("redraft", {"text": text, "instructions": ins})
        out[name] = {"status": code, "s": secs, "llm_ms": (data.get("timings_ms") or {}).get("llm"),
                     "producer": (data.get("producer") or {}).get("kind"),
                     "error": (data.get("error") or {}).get("code")}
        print(name, out[name], flush=True)
finally:
    try:
        os.killpg(server.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        server.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL); server.wait()
    out["load_after"] = os.getloadavg()[0]
    print(json.dumps(out), flush=True)
    with open("/tmp/fixes9/first_redraft.jsonl", "a") as f:
        f.write(json.dumps(out) + "\n")
