"""A wheel install works: prompts, the pane, the manifest template and the ranker ship inside."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_wheel_carries_every_file_the_server_reads(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path), str(REPO)], check=True, capture_output=True,
                   cwd=tmp_path)
    wheel = next(tmp_path.glob("precedent-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("prompts/rerank.prompt", "prompts/redraft.prompt", "prompts/support.prompt",
                   "prompts/conform.prompt", "addin_server/static/taskpane/taskpane.html",
                   "addin_server/assets/manifest.template.xml",
                   "index_builder/retrieve/ranker/model.txt",
                   "index_builder/retrieve/ranker/ranker.json",
                   "index_builder/retrieve/ranker/rows.npz",  # what `index-builder learn` relearns from
                   # every benchmark's subpackage, and the query-rewrite benchmark's prompt
                   "precedent_bench/serving/load_fault.py", "precedent_bench/common/servers.py",
                   "precedent_bench/retrieval/rewrite.prompt"):
        assert needed in names, f"{needed} is not in {wheel.name}"
