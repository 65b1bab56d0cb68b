import cProfile, pstats, json, os, sys, tempfile, shutil, time, logging
logging.disable(logging.WARNING)
from precedent_bench.common.servers import LOAD_ENV, app_for
os.environ.update(LOAD_ENV)
os.environ["PRECEDENT_AUDIT"] = "on"
from pathlib import Path
from precedent_bench.common.indexes import private_copy
from precedent_bench.unseen import library_texts, unseen
from index_builder.settings import load_settings
warm, count = int(sys.argv[1]), int(sys.argv[2])
tmp = tempfile.mkdtemp(prefix="cprof-")
index = private_copy(Path("/work/wt/i39-batch/var/acord-index"), Path(tmp) / "index", keep_usage=False)
settings = load_settings(overrides={"index_dir": index})
client = app_for(settings)[0].test_client()
texts = unseen(library_texts(Path("/work/shared/data/acord"), Path("/work/shared/data/contracts")), "short", warm + 2 * count)
def run(batch):
    began = time.thread_time()
    for text in batch:
        r = client.post("/api/v1/precedents", json={"text": text, "rerank": False})
        assert r.status_code == 200
    return (time.thread_time() - began) * 1000 / len(batch)
run(texts[:warm])
print("plain ms/search", run(texts[warm + count:]))
p = cProfile.Profile(time.thread_time)
p.enable(); run(texts[warm:warm + count]); p.disable()
st = pstats.Stats(p); st.sort_stats("tottime").print_stats(45)
st.sort_stats("cumulative").print_stats(70)
#shutil.rmtree(tmp, ignore_errors=True)
st.print_callers("method 'get' of 'dict'")
st.print_callers("builtins.len")
st.print_callers("builtins.isinstance")
st.print_callers("builtins.sum")
shutil.rmtree(tmp, ignore_errors=True)
