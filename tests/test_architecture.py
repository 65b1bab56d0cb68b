"""The layering rules of docs/architecture.md hold, read from the code by scripts/import_graph.py:
index_builder's folders and web/'s modules import only downwards, no circles, web/ at most 5
deep, views never import each other, and searches only in the retrieval layer."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "import_graph.py"


@pytest.fixture(scope="module")
def graph_tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("import_graph", SCRIPT)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.fixture(scope="module")
def graph(graph_tool):  # type: ignore[no-untyped-def]
    return graph_tool.build_graph()


def test_index_builder_imports_point_one_way(graph_tool, graph) -> None:  # type: ignore[no-untyped-def]
    assert graph_tool.wrong_way(graph, "index_builder", graph_tool.INDEX_BUILDER_LAYERS) == []


def test_web_modules_import_one_way_and_views_are_peers(graph_tool, graph) -> None:  # type: ignore[no-untyped-def]
    assert graph_tool.wrong_way(graph, "addin_server.web", graph_tool.WEB_LAYERS) == []
    assert graph_tool.blueprint_problems(graph=graph) == []


def test_no_circles(graph_tool, graph) -> None:  # type: ignore[no-untyped-def]
    assert graph_tool.circles(graph) == []


def test_web_is_at_most_five_layers_deep(graph_tool, graph) -> None:  # type: ignore[no-untyped-def]
    levels, chain = graph_tool.depth(graph, "addin_server.web.")
    assert levels <= graph_tool.MAX_WEB_DEPTH, " -> ".join(chain)


def test_searches_only_in_the_retrieval_layer(graph_tool) -> None:  # type: ignore[no-untyped-def]
    assert graph_tool.search_calls() == []


# Modules other branches may add (or a split may make) before someone redraws the graph: the
# page may lag the tree by a few, not by a reorganisation.
DRAWN_DRIFT = 15


def test_the_drawn_graph_counts_about_the_modules_the_tree_has(graph_tool, graph) -> None:  # type: ignore[no-untyped-def]
    import re

    drawing = graph_tool.DOC.read_text("utf-8").partition(graph_tool.START)[2]
    found = re.match(r"\s*(\d+) modules, ", drawing)
    assert found, f"{graph_tool.DOC.name} lost its drawn figures: python scripts/import_graph.py --write"
    stated = int(found.group(1))
    assert abs(stated - len(graph)) <= DRAWN_DRIFT, (
        f"{graph_tool.DOC.name} draws {stated} modules, the tree has {len(graph)}: "
        "python scripts/import_graph.py --write")


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_checks_catch_each_kind_of_break(graph_tool, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    _write(tmp_path, {
        "index_builder/__init__.py": "",
        "index_builder/model.py": "",
        "index_builder/index/__init__.py": "",
        "index_builder/index/backend.py": "from index_builder.model import x\n",
        # upward (ingest is below index), and a function-level circle
        "index_builder/ingest/__init__.py": "def f():\n    from index_builder.ingest import meta\n",
        "index_builder/ingest/meta.py": "from index_builder.index.backend import Condition\n"
                                        "from index_builder import ingest\n",
        "index_builder/newfolder/__init__.py": "",
        # a type-only import is not an edge
        "index_builder/ingest/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                         "    from index_builder.index import backend\n",
        "addin_server/__init__.py": "",
        "addin_server/web/__init__.py": "",
        "addin_server/web/api.py": "bp = Blueprint('api')\nfrom addin_server.web import explore\n",
        "addin_server/web/explore.py": "bp = Blueprint('explore')\nbackend.dense(v, 3)\n"
                                       "app.register_blueprint(bp)\n",
    })
    found = "\n".join(graph_tool.problems(tmp_path))
    assert "index_builder.ingest.meta -> index_builder.index.backend: ingest (row 3) imports index" in found
    assert "circle: index_builder.ingest <-> index_builder.ingest.meta" in found
    assert "index_builder.newfolder is in no row" in found
    assert "ingest.typed" not in found
    assert "api and explore are peers" in found
    assert "addin_server.web.api -> addin_server.web.explore: a blueprint imports another" in found
    assert "web/explore.py: registers a blueprint" in found
    assert "explore.py:2: calls .dense()" in found


def test_depth_counts_modules_along_the_longest_chain(graph_tool) -> None:  # type: ignore[no-untyped-def]
    chain = {f"w.{n}": ({f"w.{n + 1}"} if n < 6 else set()) for n in range(7)}
    chain["w.3"].add("w.0")  # a circle is walked once round
    assert graph_tool.depth(chain, "w.")[0] == 7
