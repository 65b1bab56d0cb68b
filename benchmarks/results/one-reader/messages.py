"""Every error message literal the server can raise (f-string fields filled with sample values,
including addresses and setting names), with the core's sentences: JSON lines for the JS compare."""
import ast, json, sys
from pathlib import Path
from index_builder.reading.sentences import sentence_spans
SAMPLES = ["http://127.0.0.1:8081/v1", "PRECEDENT_LLM_URL", "4.0", "/srv/index", "(HTTP 500 (Internal))", "x"]
def text_of(node, fill):
    if isinstance(node, ast.Constant) and isinstance(node.value, str): return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else fill for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = text_of(node.left, fill), text_of(node.right, fill)
        return a + b if a is not None and b is not None else None
    return None
out = set()
for f in list(Path("addin_server").rglob("*.py")) + list(Path("index_builder").rglob("*.py")):
    for node in ast.walk(ast.parse(f.read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")).endswith("Error") and node.args:
            for fill in SAMPLES:
                t = text_of(node.args[0], fill)
                if t and len(t) > 10: out.add(t)
for t in sorted(out):
    print(json.dumps({"m": t, "s": [t[a:b] for a, b in sentence_spans(t)]}))
