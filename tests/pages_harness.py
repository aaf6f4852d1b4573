"""Run the code blocks of the course pages exactly as a reader sees them.

A page is expanded with pymdownx's own snippet preprocessor, configured from ``mkdocs.yml`` (so
``check_paths`` and ``base_path`` behave as in ``mkdocs build``), then handed to
``pytest_codeblocks.main.extract_from_buffer`` for the blocks and their markers (``cont``,
``expected-output``, ``skip``...). The root ``conftest.py`` turns each runnable block into a test
named after the page line and the included snippet; ``tests/test_pages_harness.py`` checks this
module on pages written to a temporary folder.

Conventions a page must follow (checked by :func:`lint`):

* Fences use backticks and a language. ``python``, ``bash`` and ``sh`` run; an expected output is
  a ``text`` fence after ``<!--pytest-codeblocks:expected-output-->``. A fence that looks like code
  but would not run (``py``, ``python3``, ``python title=...``, ``{.python}``, ``~~~``) is an error.
* A block that must not run sits inside a visible ``!!! norun "why it is not run"`` admonition, and
  ``<!--pytest-codeblocks:skip-->`` stands on its own line before the admonition (at the left
  margin, blank lines around it, so it renders as nothing). A skipped block outside ``norun`` is
  an error, and so is a block inside ``norun`` that would run: the visible marker always tells
  the truth. README.md, which GitHub renders without admonitions, says it with a paragraph just
  above the block that starts with ``**Not run by the tests**``.
"""

from __future__ import annotations

import contextlib
import difflib
import io
import linecache
import os
import random
import re
import signal
import subprocess
import sys
import traceback
import types
import warnings
from dataclasses import dataclass, field
from pathlib import Path

RUN_LANGS = ("python", "bash", "sh")
# Fences that hold no runnable code and are fine as they are.
OTHER_LANGS = frozenset(
    {"text", "mermaid", "toml", "yaml", "json", "ini", "diff", "csv", "rust", "c", "cpp",
     "javascript", "html", "css", "latex", "markdown"}
)
# First words of an info string that promise code a reader would run.
CODE_LIKE = frozenset(
    {"python", "py", "python3", "py3", "pycon", "ipython", "ipython3", "pytb", "bash", "sh",
     "shell", "zsh", "console", "shell-session", "sh-session", "bash-session", "powershell"}
)
SKIP_MARK = re.compile(r"pytest\.mark\.skip(if)?\b")
NORUN_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?:!!!|\?\?\?\+?)[ \t]+norun\b(?P<rest>.*)$")
EXPECTED_OUTPUT = re.compile(r"<!--[-\s]*pytest-codeblocks:expected-output(-ignore-whitespace)?[-\s]*-->")

PYTHON_TIMEOUT = int(os.environ.get("MINIGPT_BLOCK_TIMEOUT", "300"))
SHELL_TIMEOUT = PYTHON_TIMEOUT


class BlockFailure(Exception):
    """A block failed; the message is the whole report (diff, traceback or stderr)."""


# ---------------------------------------------------------------------------------------------
# Expansion: mkdocs' snippet preprocessor, one top-level unit at a time so each output line knows
# the page line and the snippet it came from.


class Site:
    """The snippet preprocessor of one checkout, configured from its mkdocs.yml."""

    def __init__(self, root: Path):
        import markdown
        from mkdocs.config import load_config

        self.root = Path(root).resolve()
        with contextlib.redirect_stderr(io.StringIO()):
            config = load_config(str(self.root / "mkdocs.yml"))
        if "pymdownx.snippets" not in config.markdown_extensions:
            raise ValueError("mkdocs.yml: markdown_extensions must include pymdownx.snippets")
        self.snippet_config = dict(config.mdx_configs.get("pymdownx.snippets", {}))
        md = markdown.Markdown(
            extensions=["pymdownx.snippets"],
            extension_configs={"pymdownx.snippets": self.snippet_config},
        )
        self.preprocessor = md.preprocessors["snippet"]
        if self.preprocessor.auto_append:
            raise ValueError("pymdownx.snippets auto_append is not supported by the page tests")

    def rel(self, path: Path) -> str:
        path = Path(path).resolve()
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def expand(self, text: str) -> tuple[list[str], list[tuple[int, str | None]]]:
        """Expand includes; return the lines and, per line, (page line, snippet or None)."""
        pre = self.preprocessor
        page_lines = text.split("\n")
        units: list[tuple[int, list[str], list[str]]] = []  # (first page line, lines, snippets)
        i = 0
        while i < len(page_lines):
            line = page_lines[i]
            m = pre.RE_ALL_SNIPPETS.match(line)
            if m and not m.group("escape") and m.group("inline_marker"):
                units.append((i + 1, [line], [m.group("snippet")[1:-1].strip()]))
                i += 1
            elif m and not m.group("escape"):  # a block of paths between two --8<-- lines
                j = i + 1
                while j < len(page_lines):
                    m2 = pre.RE_ALL_SNIPPETS.match(page_lines[j])
                    if m2 and not m2.group("escape") and not m2.group("inline_marker"):
                        break
                    j += 1
                body = page_lines[i : j + 1]
                paths = [p.strip() for p in page_lines[i + 1 : j] if p.strip() and not p.strip().startswith(";")]
                units.append((i + 1, body, paths))
                i = j + 1
            else:
                units.append((i + 1, [line], []))
                i += 1

        lines: list[str] = []
        origins: list[tuple[int, str | None]] = []
        for first, body, paths in units:
            out = pre.run(list(body))
            label = " + ".join(paths) if paths else None
            lines.extend(out)
            origins.extend([(first, label)] * len(out))
        # The per-unit expansion must be exactly what mkdocs renders from the whole page.
        whole = pre.run(list(page_lines))
        if whole != lines:  # pragma: no cover - a guard on the splitting above
            raise RuntimeError("page expansion by units differs from pymdownx's own expansion")
        return lines, origins


# ---------------------------------------------------------------------------------------------
# Blocks and conventions


@dataclass
class Block:
    page: str  # repo-relative page path
    line: int  # page line of the opening fence
    snippets: list[str]
    syntax: str
    code: str
    expected_output: str | None
    ignore_whitespace: bool
    marks: list[str]
    importorskip: str | None
    compile_name: str  # filename for tracebacks
    compile_source: str  # code, padded so line numbers match compile_name
    file: str  # what __file__ / sys.argv[0] is while it runs
    reason: str = ""  # why a skipped block is not run, as the reader sees it

    @property
    def name(self) -> str:
        label = f"[{' + '.join(self.snippets)}]" if self.snippets else ""
        return f"L{self.line}{label}"

    @property
    def skipped(self) -> bool:
        return any(SKIP_MARK.match(m) for m in self.marks) or self.importorskip is not None


@dataclass
class Page:
    path: Path
    rel: str
    blocks: list[Block] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _fences(lines: list[str]):
    """Yield (index, indent, fence chars, info) for each opening fence, and the closing index."""
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        m = re.match(r"(`{3,}|~{3,})(.*)$", stripped)
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2).strip()
        indent = len(lines[i]) - len(stripped)
        j = i + 1
        while j < len(lines):
            s = lines[j].lstrip()
            if s.startswith(fence[0] * len(fence)) and s.strip(fence[0]).strip() == "":
                break
            j += 1
        yield i, indent, fence, info, j
        i = j + 1


def _enclosing_norun(lines: list[str], index: int, indent: int) -> str | None:
    """The `!!! norun` line that directly holds the fence at `index`, if any."""
    for k in range(index - 1, -1, -1):
        line = lines[k]
        if not line.strip():
            continue
        line_indent = len(line) - len(line.lstrip())
        if line_indent < indent:
            return line if NORUN_OPEN.match(line) and line_indent + 4 == indent else None
    return None


README_NORUN = re.compile(r"^\s*\*\*(Not run by the tests|不在测试里运行)")


def _readme_norun(lines: list[str], index: int) -> bool:
    """Outside the site (README.md on GitHub, where admonitions do not render) the visible marker is
    a paragraph just above the block that starts with **Not run by the tests** (or **不在测试里运行**)."""
    k = index - 1
    while k >= 0 and (not lines[k].strip() or re.match(r"^\s*<!--.*-->\s*$", lines[k])):
        k -= 1
    while k > 0 and lines[k - 1].strip():
        k -= 1
    return k >= 0 and bool(README_NORUN.match(lines[k]))


def lint(lines: list[str], origins, page_rel: str) -> list[str]:
    """Problems with the fences of an expanded page, each naming the page line."""
    problems = []

    def where(i):
        page_line, snippet = origins[i]
        return f"{page_rel}:{page_line}" + (f" (in {snippet})" if snippet else "")

    for i, line in enumerate(lines):
        if re.match(r"^\s*>[\s>]*(```|~~~)", line):
            problems.append(f"{where(i)}: a fence inside a > quote is never run or checked; take it out of the quote")
    for i, indent, fence, info, _end in _fences(lines):
        first = re.split(r"[\s{}.]+", info.strip("{} ").lstrip("."))[0].lower() if info else ""
        if fence[0] == "~":
            problems.append(f"{where(i)}: a ~~~ fence is never run or checked; use ``` and a language")
        elif not info:
            problems.append(
                f"{where(i)}: a fence without a language; use ```python/```bash to run it, ```text for output"
            )
        elif info in RUN_LANGS:
            pass
        elif first in CODE_LIKE:
            problems.append(
                f"{where(i)}: fence '{fence}{info}' looks like code but would not run; "
                f"write exactly ```python, ```bash or ```sh (no title= or other options)"
            )
        elif info not in OTHER_LANGS:
            problems.append(
                f"{where(i)}: unknown fence language '{info}'; use one of "
                f"{', '.join(RUN_LANGS + tuple(sorted(OTHER_LANGS)))}"
            )
        # an expected output is plain text
        prev = next((lines[k] for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        if EXPECTED_OUTPUT.fullmatch(prev.strip()) and info != "text":
            problems.append(f"{where(i)}: an expected output must be a ```text fence, not '{info}'")
        # a norun admonition must say why (its title) and hold only skipped blocks
        norun = _enclosing_norun(lines, i, indent)
        if norun is not None and not re.search(r"\S", NORUN_OPEN.match(norun).group("rest")):
            problems.append(f"{where(i)}: a norun admonition needs a title that says why it is not run")
    return problems


def _block_source(site: Site, page_rel: str, cb, lines, origins, indent: int):
    """Pick a filename and padding so a traceback shows the real file's line numbers.

    Returns (compile filename, padded source, file the block stands for, included snippets).
    """
    fence = cb.lineno - 1  # 0-based index of the opening fence in the expanded lines
    n = cb.code.count("\n")
    page_line = origins[fence][0]
    snippets = []
    for _pl, label in origins[fence + 1 : fence + 1 + n]:
        if label and label not in snippets:
            snippets.append(label)
    code_lines = cb.code.split("\n")[:-1]

    # the whole block comes from one included file: name that file, at the right line
    if len(snippets) == 1 and " + " not in snippets[0] and all(
        origins[fence + 1 + k][1] == snippets[0] for k in range(n)
    ):
        target = site.preprocessor.parse_snippet_target(snippets[0])
        found = site.preprocessor.get_snippet_path(target["path"]) if target else None
        if found:
            file_lines = Path(found).read_text(encoding="utf-8").split("\n")
            want = list(code_lines)
            while want and not want[-1].strip():
                want.pop()
            for off in range(0, len(file_lines) - len(want) + 1):
                if file_lines[off : off + len(want)] == want:
                    rel = site.rel(Path(found))
                    linecache.cache[rel] = (0, None, [ln + "\n" for ln in file_lines], rel)
                    return rel, "\n" * off + cb.code, rel, snippets

    # the block is written on the page itself: name the page, at the right line
    body = lines[fence + 1 : fence + 1 + n]
    as_written = "".join(ln[min(indent, len(ln) - len(ln.lstrip(" "))) :] + "\n" for ln in body)
    if not snippets and as_written == cb.code:
        page_file = site.root / page_rel
        if page_file.exists():
            text = page_file.read_text(encoding="utf-8")
            linecache.cache[page_rel] = (0, None, text.splitlines(True), page_rel)
        return page_rel, "\n" * page_line + cb.code, page_rel, snippets

    # mixed or continued blocks: show the expanded code itself
    name = f"{page_rel}::L{page_line} (expanded)"
    linecache.cache[name] = (0, None, cb.code.splitlines(True), name)
    file = page_rel
    if snippets:
        target = site.preprocessor.parse_snippet_target(snippets[0].split(" + ")[0])
        found = site.preprocessor.get_snippet_path(target["path"]) if target else None
        if found:
            file = site.rel(Path(found))
    return name, cb.code, file, snippets


def load_page(site: Site, path: Path) -> Page:
    """Expand a page and return its runnable blocks and its convention problems."""
    from pytest_codeblocks.main import extract_from_buffer

    path = Path(path)
    rel = site.rel(path)
    page = Page(path=path, rel=rel)
    text = path.read_text(encoding="utf-8")
    try:
        lines, origins = site.expand(text)
    except Exception as e:  # SnippetMissingError and friends
        page.problems.append(f"{rel}: {type(e).__name__}: {e}")
        return page
    page.problems.extend(lint(lines, origins, rel))

    with warnings.catch_warnings():
        # `pytest-codeblocks:skip` is our documented marker; its deprecation note is noise here
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            cbs = extract_from_buffer(io.StringIO("\n".join(lines)))
        except RuntimeError as e:
            page.problems.append(f"{rel}: {e}")
            return page

    fence_info = {i: (indent, info) for i, indent, _f, info, _e in _fences(lines)}
    for cb in cbs:
        if cb.syntax not in RUN_LANGS:
            continue
        indent = fence_info.get(cb.lineno - 1, (0, ""))[0]
        compile_name, compile_source, file, snippets = _block_source(site, rel, cb, lines, origins, indent)
        block = Block(
            page=rel,
            line=origins[cb.lineno - 1][0],
            snippets=snippets,
            syntax=cb.syntax,
            code=cb.code,
            expected_output=cb.expected_output,
            ignore_whitespace=cb.expected_output_ignore_whitespace,
            marks=list(cb.marks),
            importorskip=cb.importorskip,
            compile_name=compile_name,
            compile_source=compile_source,
            file=file,
        )
        in_site = rel.startswith("docs/")
        if in_site:
            opener = _enclosing_norun(lines, cb.lineno - 1, indent)
            norun = opener is not None
            if opener:
                block.reason = NORUN_OPEN.match(opener).group("rest").strip().strip('"')
            how = 'inside a visible admonition: !!! norun "why it is not run" (body indented by 4 spaces)'
        else:
            norun = _readme_norun(lines, cb.lineno - 1)
            how = "right after a paragraph that starts with **Not run by the tests** and says why"
        if block.skipped and not norun:
            page.problems.append(
                f"{rel}:{block.line}: this {block.syntax} block is skipped but the reader is not told; put it {how}"
            )
        elif norun and not block.skipped:
            page.problems.append(
                f"{rel}:{block.line}: this block is marked as not run but would run; add "
                "<!--pytest-codeblocks:skip--> before it or drop the marker"
            )
        page.blocks.append(block)
    return page


# ---------------------------------------------------------------------------------------------
# Running


def _venv_bin() -> Path:
    return Path(sys.executable).parent


def shell_env() -> dict[str, str]:
    env = dict(os.environ)  # MINIGPT_DATA and friends pass through
    env["PATH"] = str(_venv_bin()) + os.pathsep + env.get("PATH", "")
    if sys.prefix != sys.base_prefix:
        env["VIRTUAL_ENV"] = sys.prefix
    env.setdefault("MPLBACKEND", "Agg")
    return env


def reset_rng() -> None:
    """Every block starts from the same random state, whatever ran before it."""
    random.seed(0)
    try:
        import numpy as np
    except ImportError:  # pragma: no cover
        pass
    else:
        np.random.seed(0)
    try:  # a fresh process seeds torch at random, so any fixed seed is as faithful as another
        import torch
    except ImportError:  # pragma: no cover
        pass
    else:
        torch.manual_seed(0)


@contextlib.contextmanager
def _alarm(seconds: int, what: str):
    if not hasattr(signal, "SIGALRM") or signal.getsignal(signal.SIGALRM) is None:
        yield
        return
    try:
        import threading

        main = threading.current_thread() is threading.main_thread()
    except Exception:  # pragma: no cover
        main = False
    if not main:
        yield
        return

    def on_alarm(signum, frame):
        raise TimeoutError(f"{what} ran longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _trim_traceback(tb):
    """Drop this module's own frames so the report starts at the block's code."""
    here = os.path.abspath(__file__)
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) == here:
        tb = tb.tb_next
    return tb


def run_python(block: Block, root: Path) -> str:
    main = types.ModuleType("__main__")
    main.__file__ = str(Path(root) / block.file)
    main.__builtins__ = __builtins__
    saved = (os.getcwd(), list(sys.argv), list(sys.path), sys.modules.get("__main__"))
    out = io.StringIO()
    try:
        code = compile(block.compile_source, block.compile_name, "exec", dont_inherit=True)
    except SyntaxError as e:
        raise BlockFailure(_report(block, "".join(traceback.format_exception_only(type(e), e))))
    reset_rng()
    try:
        os.chdir(root)
        sys.argv[:] = [block.file]
        sys.path.insert(0, str((Path(root) / block.file).parent))
        sys.modules["__main__"] = main
        with contextlib.redirect_stdout(out), _alarm(PYTHON_TIMEOUT, f"{block.page}:{block.line}"):
            exec(code, main.__dict__)
    except SystemExit as e:
        if e.code not in (None, 0):
            raise BlockFailure(_report(block, f"SystemExit({e.code!r})", out.getvalue()))
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        tb = "".join(traceback.format_exception(type(e), e, _trim_traceback(e.__traceback__)))
        raise BlockFailure(_report(block, tb, out.getvalue())) from None
    finally:
        os.chdir(saved[0])
        sys.argv[:] = saved[1]
        sys.path[:] = saved[2]
        if saved[3] is not None:
            sys.modules["__main__"] = saved[3]
        if "matplotlib.pyplot" in sys.modules:
            sys.modules["matplotlib.pyplot"].close("all")
    return out.getvalue()


def run_shell(block: Block, root: Path) -> str:
    try:
        proc = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", block.code],
            cwd=root,
            env=shell_env(),
            capture_output=True,
            text=True,
            timeout=SHELL_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as e:
        def s(x):
            return x.decode(errors="replace") if isinstance(x, bytes) else (x or "")
        raise BlockFailure(
            _report(block, f"timed out after {SHELL_TIMEOUT} s\n--- stderr ---\n{s(e.stderr)}", s(e.stdout))
        ) from None
    if proc.returncode != 0:
        raise BlockFailure(
            _report(
                block,
                f"bash -euo pipefail exited with status {proc.returncode}\n--- stderr ---\n{proc.stderr}",
                proc.stdout,
            )
        )
    return proc.stdout


def _report(block: Block, what: str, stdout: str = "") -> str:
    where = f"{block.page}:{block.line}" + (f" ({' + '.join(block.snippets)})" if block.snippets else "")
    parts = [f"{where}: the {block.syntax} block failed", "", block.code.rstrip("\n"), "", what.rstrip("\n")]
    if stdout:
        parts += ["", "--- stdout ---", stdout.rstrip("\n")]
    return "\n".join(parts) + "\n"


def check_output(block: Block, output: str) -> None:
    if block.expected_output is None:
        return
    want, got = block.expected_output, output
    if block.ignore_whitespace:
        same = re.sub(r"\s+", "", want) == re.sub(r"\s+", "", got)
    else:
        same = want == got
    if same:
        return
    diff = "".join(
        difflib.unified_diff(
            want.splitlines(True), got.splitlines(True), "shown on the page", "printed by the code"
        )
    )
    where = f"{block.page}:{block.line}" + (f" ({' + '.join(block.snippets)})" if block.snippets else "")
    raise BlockFailure(
        f"{where}: the output shown on the page differs from what the code prints\n\n{diff}\n"
        f"--- printed ---\n{got}"
    )


def run_block(block: Block, root: Path) -> str:
    """Run one block on its own and check its shown output; raise BlockFailure with the report."""
    if block.syntax == "python":
        output = run_python(block, root)
    else:
        output = run_shell(block, root)
    check_output(block, output)
    return output
