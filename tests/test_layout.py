"""The package layout's promises: data flows one way and no module imports itself in a circle.

Imports are read from the source (every `import`, at module level or inside a function), so a
cycle hidden behind a function-level import counts as a cycle too.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "vision", "server")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """module -> the project modules that importing it runs (a package counts as its __init__)."""
    files = {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        found: set[str] = set()
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    keep = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(keep + ([base] if base else []))
                # `from pkg import sub` imports the submodule; `from mod import name`, the module.
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                # Importing a.b.c runs a and a.b first, unless they are this module's own parents.
                chain = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
                found |= {n for n in chain if n in files and n != mod and not mod.startswith(n + ".")}
        graph[mod] = found
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules along it, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (c := visit(n)):
                return c
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (c := visit(m)):
            return c
    return None


def test_no_import_cycles():
    assert find_cycle(import_graph()) is None


def test_data_flows_one_way():
    """rules imports neither vision nor server; vision never imports server."""
    for mod, deps in import_graph().items():
        top = mod.split(".")[0]
        banned = {"rules": ("vision", "server"), "vision": ("server",), "server": ()}[top]
        assert not [d for d in deps if d.split(".")[0] in banned], mod


def test_the_running_server_leaves_the_evaluation_package_alone():
    """server.app imports no harness, benchmark or footage builder; the demo's `scripted` alone."""
    graph = import_graph()
    seen, todo = set(), ["server.app"]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph[m])
    assert {m for m in seen if m.startswith("server.evaluation")} <= {"server.evaluation", "server.evaluation.scripted"}
