"""The import graph of interpreter/leges/: no cycle, no upward import between the layers, and no loose
module at the top: every module belongs to a layer.

From the bottom: text (files, sources, errors: plumbing), then lang (the rule language) and board,
model (reading rulesets), engine (building and running games), the package's own face (`leges.load`),
agents and render, lab (studies), authoring and adapters, web, cli. A layer imports only itself and
the layers below it; two packages on one level import neither each other. Every import counts: at the
top of a module, inside a function, or under `if TYPE_CHECKING:`.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from helpers import ROOT

PACKAGE = ROOT / "interpreter" / "leges"
FACE = "(the package's face)"  # leges/__init__.py: load, Game, State, the errors
LAYERS = {"text": 0, "lang": 1, "board": 1, "model": 2, "engine": 3, FACE: 4, "agents": 5, "render": 5,
          "lab": 6, "authoring": 7, "adapters": 7, "web": 8, "cli": 9, "__main__": 10}

def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Module → the modules of the package it imports, anywhere in its text."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    top = package.name
    graph = {}
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.split(".")[0] == top}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[:len(here.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != top:
                    continue
                for alias in node.names:  # `from .x import y`: the module y, or what x defines
                    sub = f"{target}.{alias.name}"
                    found.add(sub if sub in modules else target)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(frozenset(group))
    return found


GRAPH = import_graph()
CYCLES = cycles(GRAPH)


def test_the_graph_is_read():
    assert "leges.lang.codegen.compiler" in GRAPH["leges.engine.builder.parts"]
    assert "leges.model.sections" in GRAPH["leges.model.loader"]
    assert "leges.engine.program" in GRAPH["leges.engine.builder.parts"]


def test_a_cycle_is_found(tmp_path):
    pkg = tmp_path / "leges"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "a.py").write_text("from . import b\n")
    (pkg / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    (pkg / "c.py").write_text("def f():\n    from .sub.a import y\n")
    graph = import_graph(pkg)
    assert graph["leges.c"] == {"leges.sub.a"}
    assert cycles(graph) == [frozenset({"leges.sub.a", "leges.sub.b"})]


@pytest.mark.parametrize("cycle", [pytest.param(c, id="+".join(sorted(m.split(".", 1)[1] for m in c)))
                                   for c in CYCLES] or [pytest.param(None, id="none")])
def test_no_import_cycle(cycle):
    assert cycle is None, "modules importing each other: " + ", ".join(sorted(cycle))


def layer_of(module: str) -> str:
    return module.split(".")[1] if "." in module else FACE


def test_every_module_belongs_to_a_layer():
    """No loose tool module at the package's top level: a new module goes into the layer it serves."""
    loose = sorted(m for m in GRAPH if layer_of(m) not in LAYERS)
    assert not loose, "modules outside every layer: " + ", ".join(loose)
    assert set(LAYERS) - {FACE} == {layer_of(m) for m in GRAPH} - {FACE}, "a layer declared here has no package"


def test_no_upward_import_between_layers():
    """A module imports only its own layer's package and the layers below."""
    wrong = []
    for module, imported in GRAPH.items():
        layer = layer_of(module)
        for target in imported:
            other = layer_of(target)
            if other != layer and LAYERS[other] >= LAYERS[layer]:
                wrong.append(f"{module} ({layer}) imports {target} ({other})")
    assert not wrong, "\n".join(sorted(wrong))


def test_an_upward_import_is_found(tmp_path):
    pkg = tmp_path / "leges"
    for sub in ("text", "engine"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "engine" / "run.py").write_text("")
    (pkg / "text" / "errors.py").write_text("def f():\n    from ..engine import run\n")
    graph = import_graph(pkg)
    assert graph["leges.text.errors"] == {"leges.engine.run"}
    assert LAYERS[layer_of("leges.engine.run")] > LAYERS[layer_of("leges.text.errors")]


def test_no_private_name_is_imported_from_another_module():
    """A name with a leading underscore is its module's own; another module needing it asks for a public one."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("leges")):
                found += [f"{path.relative_to(PACKAGE)}:{node.lineno} {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, "\n".join(found)


LANG_PASSES = {"syntax": 0, "check": 1, "optimise": 2, "codegen": 3}


def test_the_rule_language_reads_as_its_passes():
    """lang/: syntax → check → optimise → codegen, each pass importing only itself and those before it
    (the compiler drives the passes; no pass reaches into one that comes after it)."""
    wrong = []
    for module, imported in GRAPH.items():
        parts = module.split(".")
        if len(parts) < 3 or parts[1] != "lang" or parts[2] not in LANG_PASSES:
            continue
        for target in imported:
            other = target.split(".")
            if len(other) > 2 and other[1] == "lang" and other[2] in LANG_PASSES \
                    and LANG_PASSES[other[2]] > LANG_PASSES[parts[2]]:
                wrong.append(f"{module} ({parts[2]}) imports {target} ({other[2]})")
    assert not wrong, "\n".join(sorted(wrong))
