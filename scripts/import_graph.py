"""The import graph of the Python packages, drawn from the code, and the layering rules it must keep.

    python scripts/import_graph.py            # figures + the Mermaid diagrams of docs/architecture.md
    python scripts/import_graph.py --write    # redraw them in docs/architecture.md
    python scripts/import_graph.py --check    # exit 1 and list every broken rule

Every ``import`` and ``from ... import`` counts, at module level or inside a function (a
function-level import is how a circle hides), read with ``ast`` from the source: nothing is
imported or run. Imports under ``if TYPE_CHECKING:`` are left out: they never run, so they
cannot make a circle or load a layer (they only name a type for the checker). ``from pkg import name`` is an edge to ``pkg.name`` when that is a module,
else to ``pkg``. tests/test_architecture.py runs ``problems()`` so the rules cannot regress.

Why a small ast script rather than import-linter or grimp: the rules here are two layer tables
and four facts (circles, depth, blueprints, search calls) that fit in one screen, the figures
go into docs/architecture.md, and the test needs no extra dependency.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
START, END = "<!-- import-graph: start (scripts/import_graph.py --write) -->", "<!-- import-graph: end -->"
PACKAGES = ("index_builder", "addin_server", "precedent_bench")

# index_builder's folders (and top-level modules), lowest first. A module may import from a
# lower row only; the names in one row are peers that never import each other.
INDEX_BUILDER_LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(row) for row in (
    {"errors"},
    {"settings", "model", "extras"},
    {"reading"},  # the clause-reading core (issue 38): the server and the index both use it
    {"terms", "ingest"},
    {"index"},
    {"retrieve", "sources"},
    {"learn", "evaluate"},
    {"cli"},
))
# addin_server/web's modules, lowest first, with the same rule. The views (row 4) are peers:
# what they share sits below them (context, validate, ...), and only app.py sees them all.
WEB_LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(row) for row in (
    {"errors", "body", "context", "serialize", "static_files", "wsgi", "deferred", "prefork",
     "shared", "audit_key"},
    {"validate", "limits"},
    {"follow", "recording"},
    {"api", "explore", "market", "conform", "usage", "auth", "audit"},
    {"app"},
))
MAX_WEB_DEPTH = 5
# Only these folders may call an engine's searches (backend.dense / backend.lexical). The
# benchmarks (precedent_bench) measure the engines themselves: dense recall against exact
# search, a clause found by its own vector after a crash, the whole library listed.
SEARCH_HOMES = ("index_builder.retrieve", "index_builder.index", "precedent_bench")

Graph = dict[str, set[str]]


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Module name -> file, for every .py file of the packages."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """The dotted names one import statement asks for (a from-import: each name, and its base)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[:len(parts) - (node.level - 1)]
        base = ".".join(parts + ([base] if base else []))
    return [f"{base}.{alias.name}" for alias in node.names] + [base]


def _is_type_checking(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def build_graph(root: Path = ROOT) -> Graph:
    """module -> the project modules it imports (anywhere in its file)."""
    files = modules(root)
    graph: Graph = {name: set() for name in files}
    for name, path in files.items():
        tree = ast.parse(path.read_text("utf-8"), str(path))
        typing_only = {id(n) for block in ast.walk(tree) if _is_type_checking(block)
                       for stmt in block.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or id(node) in typing_only:
                continue
            wanted = _imported(node, name, path.name == "__init__.py")
            if isinstance(node, ast.ImportFrom):
                # ``from pkg import sub``: the edge is to the submodule, not to pkg/__init__.
                subs = [w for w in wanted[:-1] if w in files]
                wanted = subs if len(subs) == len(wanted) - 1 else wanted
            for target in wanted:
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def _unit(module: str, package: str) -> str | None:
    """The first name under ``package`` (folder or module); None outside it or for its __init__."""
    if not module.startswith(package + "."):
        return None
    return module[len(package) + 1:].split(".")[0]


def wrong_way(graph: Graph, package: str, layers: tuple[frozenset[str], ...]) -> list[str]:
    """Imports inside ``package`` from a unit to a higher or same-row unit, and unplaced units."""
    row = {name: i for i, names in enumerate(layers) for name in names}
    out = []
    for source in sorted(graph):
        mine = _unit(source, package)
        if mine is None:
            continue
        if mine not in row:
            out.append(f"{source}: {package}.{mine} is in no row of the layer table in "
                       f"scripts/import_graph.py; add it to the row it belongs to")
            continue
        for target in sorted(graph[source]):
            theirs = _unit(target, package)
            if theirs is None or theirs == mine or theirs not in row:
                continue
            if row[theirs] > row[mine]:
                out.append(f"{source} -> {target}: {mine} (row {row[mine]}) imports {theirs}, "
                           f"a higher row ({row[theirs]})")
            elif row[theirs] == row[mine]:
                out.append(f"{source} -> {target}: {mine} and {theirs} are peers (row "
                           f"{row[mine]}) and must not import each other")
    return out


def circles(graph: Graph) -> list[list[str]]:
    """Groups of modules that import each other, directly or round a loop (Tarjan's SCCs)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative: deep chains must not hit the recursion limit
        nonlocal counter
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def depth(graph: Graph, prefix: str) -> tuple[int, list[str]]:
    """The longest chain of imports among the modules under ``prefix``, counted in modules (a
    circle is walked once round), and one such chain."""
    inside = {m: sorted(t for t in graph[m] if t.startswith(prefix)) for m in graph if m.startswith(prefix)}
    best: list[str] = []

    def walk(path: list[str]) -> None:  # a few dozen modules: trying every simple path is cheap
        nonlocal best
        if len(path) > len(best):
            best = list(path)
        for target in inside[path[-1]]:
            if target not in path:
                walk(path + [target])

    for start in sorted(inside):
        walk([start])
    return len(best), best


def blueprint_problems(root: Path = ROOT, graph: Graph | None = None) -> list[str]:
    """Views that import one another, blueprints registered outside app.py, dead token guards."""
    graph = graph if graph is not None else build_graph(root)
    web = root / "addin_server" / "web"
    views = {f"addin_server.web.{p.stem}" for p in web.glob("*.py") if "Blueprint(" in p.read_text("utf-8")}
    out = [f"{view} -> {other}: a blueprint imports another blueprint (share through "
           f"web/context.py or web/validate.py instead)"
           for view in sorted(views) for other in sorted(graph.get(view, ())) if other in views]
    for path in sorted(web.glob("*.py")):
        text = path.read_text("utf-8")
        if "register_blueprint(" in text and path.name != "app.py":
            out.append(f"{path.relative_to(root)}: registers a blueprint; only create_app (web/app.py) does")
        if "hasattr(api" in text:
            out.append(f"{path.relative_to(root)}: a hasattr(api, ...) guard")
    return out


def search_calls(root: Path = ROOT) -> list[str]:
    """Calls of an engine's dense/lexical search outside the retrieval and index layers."""
    out = []
    for name, path in modules(root).items():
        if name.startswith(SEARCH_HOMES):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("dense", "lexical")):
                out.append(f"{path.relative_to(root)}:{node.lineno}: calls .{node.func.attr}(): "
                           f"searches belong in index_builder/retrieve (SearchPipeline)")
    return out


def problems(root: Path = ROOT) -> list[str]:
    """Every broken rule, each a line naming the import and the fix; [] when the house is in order."""
    graph = build_graph(root)
    out = wrong_way(graph, "index_builder", INDEX_BUILDER_LAYERS)
    out += wrong_way(graph, "addin_server.web", WEB_LAYERS)
    out += [f"circle: {' <-> '.join(group)}" for group in circles(graph)]
    levels, chain = depth(graph, "addin_server.web.")
    if levels > MAX_WEB_DEPTH:
        out.append(f"addin_server/web is {levels} layers deep (at most {MAX_WEB_DEPTH}): "
                   f"{' -> '.join(chain)}")
    return out + blueprint_problems(root, graph) + search_calls(root)


def figures(root: Path = ROOT) -> dict[str, object]:
    graph = build_graph(root)
    levels, chain = depth(graph, "addin_server.web.")
    return {"modules": len(graph), "imports": sum(len(t) for t in graph.values()),
            "wrong_way_index_builder": len(wrong_way(graph, "index_builder", INDEX_BUILDER_LAYERS)),
            "wrong_way_web": len(wrong_way(graph, "addin_server.web", WEB_LAYERS)),
            "circles": len(circles(graph)), "web_depth": levels, "web_chain": chain}


def mermaid(graph: Graph, package: str, layers: tuple[frozenset[str], ...]) -> str:
    """A flowchart of the imports between ``package``'s units, one subgraph per row, top row first."""
    edges: dict[tuple[str, str], int] = defaultdict(int)
    for source, targets in graph.items():
        mine = _unit(source, package)
        for target in targets:
            theirs = _unit(target, package)
            if mine and theirs and mine != theirs:
                edges[(mine, theirs)] += 1
    present = {u for pair in edges for u in pair} | {_unit(m, package) for m in graph} - {None}
    lines = ["flowchart TB"]
    for i, row in reversed(list(enumerate(layers))):
        names = sorted(n for n in row if n in present)
        if names:
            lines.append(f"  subgraph row{i}[\" \"]")
            lines += [f"    {n}" for n in names]
            lines.append("  end")
    lines += [f"  {a} --> {b}" for a, b in sorted(edges)]
    return "\n".join(lines)


def drawn(root: Path = ROOT) -> str:
    """The figures and both diagrams, as docs/architecture.md shows them."""
    graph = build_graph(root)
    f = figures(root)
    return (f"{f['modules']} modules, {f['imports']} imports between them. Wrong-way imports: "
            f"index_builder {f['wrong_way_index_builder']}, web {f['wrong_way_web']}; circles: "
            f"{f['circles']}; web depth: {f['web_depth']} "
            f"({' -> '.join(m.rpartition('.')[2] for m in f['web_chain'])}).\n\n"
            f"index_builder (folders; an arrow is an import, every arrow points down):\n\n"
            f"```mermaid\n{mermaid(graph, 'index_builder', INDEX_BUILDER_LAYERS)}\n```\n\n"
            f"addin_server/web (modules):\n\n"
            f"```mermaid\n{mermaid(graph, 'addin_server.web', WEB_LAYERS)}\n```\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list broken rules; exit 1 if any")
    parser.add_argument("--write", action="store_true", help=f"redraw the graph in {DOC.name}")
    args = parser.parse_args(argv)
    found = problems()
    if args.check:
        sys.stdout.write("".join(f"{line}\n" for line in found) or "The layering rules hold.\n")
        return 1 if found else 0
    if args.write:
        text = DOC.read_text("utf-8")
        head, _, rest = text.partition(START)
        _, _, tail = rest.partition(END)
        DOC.write_text(f"{head}{START}\n{drawn()}{END}{tail}", "utf-8")
        return 0
    sys.stdout.write(drawn() + "".join(f"broken: {line}\n" for line in found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
