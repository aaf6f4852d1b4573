"""The package's shape: minigpt's modules import each other in layers, with no cycle, the library never reaches
for the course beside it or for the repository, and every named section of its source is shown by some page."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "minigpt"


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The minigpt modules ``path`` imports, at the top or inside a function: ``from minigpt import poetry``
    and ``from . import functional`` name the submodule, ``from minigpt.tensor import Tensor`` the module."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found |= {f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names}
    return {m for m in found if m in known and m != name}


def import_graph() -> dict[str, set[str]]:
    paths = modules()
    return {name: imports_of(path, set(paths)) for name, path in paths.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as [a, b, ..., a], or None (depth-first search, three colours)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_import_graph_is_read_correctly():
    graph = import_graph()
    assert {"minigpt.tensor", "minigpt.functional", "minigpt.nn"} <= graph["minigpt.gpt"]  # `from . import`, `from .x`
    assert "minigpt.poetry" in graph["minigpt.constrain"]  # `from minigpt import poetry`
    assert "minigpt.checkpoint" in graph["minigpt.cli"]  # inside a function
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_import_cycle_among_minigpts_modules():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_generation_does_not_lean_on_training():
    graph = import_graph()
    for module in ("minigpt.generate", "minigpt.gpt", "minigpt.gpt_torch", "minigpt.constrain"):
        assert "minigpt.train" not in reachable(graph, module), module
    assert "minigpt.device" in graph["minigpt.generate"] and "minigpt.device" in graph["minigpt.train"]


def test_the_library_never_imports_the_course_or_looks_for_the_repository():
    """src/minigpt is what a reader could install and use alone: the course (minigpt_course) imports it, never
    the other way round (the course's commands reach `minigpt` by entry point), and no module finds files
    through the folders above its own (``Path(__file__).parents[2]`` is the repository only in a checkout)."""
    problems = []
    for name, path in modules().items():
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            named = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            problems += [f"{name} imports {m}" for m in named if m.split(".")[0] == "minigpt_course"]
        problems += [f"{name} reaches above its folder: {m.group(0)}" for m in re.finditer(r"\.parents\[\d+\]", text)]
    assert not problems, problems
    course = SRC / "minigpt_course" / "commands.py"
    assert "minigpt_course" in (SRC.parent / "pyproject.toml").read_text(encoding="utf-8") and course.exists()


MARKER = re.compile(r"^\s*# --8<-- \[(start|end):([\w-]+)\]\s*$", re.M)
INCLUDE = re.compile(r'--8<-- "src/minigpt/([\w/]+\.py):([\w-]+)"')


def sections_in_src() -> dict[tuple[str, str], list[str]]:
    """(file under src/minigpt, section name) -> its markers in order, e.g. ["start", "end"]."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for kind, name in MARKER.findall(path.read_text(encoding="utf-8")):
            found.setdefault((path.relative_to(PACKAGE).as_posix(), name), []).append(kind)
    return found


def sections_shown() -> set[tuple[str, str]]:
    docs = SRC.parent / "docs"
    return {m for page in sorted(docs.rglob("*.md")) for m in INCLUDE.findall(page.read_text(encoding="utf-8"))}


def test_every_section_marker_in_src_is_shown_by_some_page():
    sections, shown = sections_in_src(), sections_shown()
    assert sections and shown
    unpaired = {k: v for k, v in sections.items() if v != ["start", "end"]}
    assert not unpaired, f"a section needs one start and one end marker: {unpaired}"
    unshown = sorted(f"{file}:{name}" for file, name in set(sections) - shown)
    assert not unshown, f"sections no page includes (delete the markers, or show them): {unshown}"
    missing = sorted(f"{file}:{name}" for file, name in shown - set(sections))
    assert not missing, f"pages include sections src/minigpt does not mark: {missing}"


def test_the_marker_patterns_read_what_pages_write():
    assert MARKER.findall("x = 1\n    # --8<-- [start:mha_forward]\n# --8<-- [end:mha_forward]\n") == [
        ("start", "mha_forward"), ("end", "mha_forward")]
    assert INCLUDE.findall('```python\n--8<-- "src/minigpt/gpt.py:causal_mask"\n```') == [("gpt.py", "causal_mask")]
