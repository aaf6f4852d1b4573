"""Read a course page the way the site shows it: its code blocks, their includes, its prose.

The one Markdown reader of the tests. pytest-codeblocks finds the fenced blocks and their markers,
pymdownx's own snippet preprocessor (configured from ``mkdocs.yml``, as ``mkdocs build`` uses it)
expands the includes, and ``read_page`` sorts every python/bash/sh block into one kind:

* ``script``  ``--8<-- "snippets/<lesson>/NN_what.py"`` alone: run as ``python <that file>``;
* ``shown``   includes of sections, lesson modules or ``src/`` files: displayed, never run;
* ``shell``   a bash/sh block: run with ``bash -euo pipefail`` from the repository root;
* ``norun``   inside a visible ``!!! norun "why"`` admonition (README.md: after a paragraph that starts
  with ``**Not run by the tests**``), with ``<!--pytest-codeblocks:skip-->`` before it.

``Page.problems`` lists every broken convention (see CONTRIBUTING.md), each naming the page line.

A shown output is compared character by character, on every CPU. The few outputs that depend on the CPU
(its bfloat16 hardware, its speed, or a few hundred training steps that its kernels' order of addition moves)
are followed by a visible ``!!! cpu "what differs, by how much"`` note and a hidden
``<!--varies: numbers 0.02, verdicts, poems-->`` line that says what the test lets differ (``Varies``);
everything else in such an output is still compared exactly. ``make test-kernels`` runs Parts 3 and 4 again
under an AVX2-only CPU's kernels, so a trained model's output without its note fails there.
"""

from __future__ import annotations

import ast
import atexit
import contextlib
import difflib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from minigpt_course import checks
from minigpt_course.lessons import lessons

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LANGS = ("zh", "en")

RUN_LANGS = ("python", "bash", "sh")
OTHER_LANGS = frozenset({"text", "mermaid", "toml", "yaml", "json", "ini", "diff", "csv", "html", "css", "latex"})
CODE_LIKE = frozenset({"py", "python3", "py3", "pycon", "ipython", "ipython3", "pytb", "shell", "zsh", "console",
                       "shell-session", "sh-session", "bash-session", "powershell"})
MARKER = re.compile(r"^\s*<!--[-\s]*(pytest[-.:a-z]*)[\s:]*([^>]*?)[-\s]*-->\s*$")
ALLOWED_MARKERS = {"expected-output", "skip"}
INCLUDE = re.compile(r"""^\s*-{1,}8<-{1,}\s+(["'])(.+?)\1\s*$""")
SCRIPT = re.compile(r"^snippets/[a-z0-9-]+/\d\d_[a-z0-9_]+\.py$")
NORUN = re.compile(r"^(?P<indent>\s*)(?:!!!|\?\?\?\+?)\s+norun\b\s*(?P<title>.*)$")
FOLD = re.compile(r"^(?P<indent>\s*)\?\?\?\+?\s+\w+")
DEPTH = re.compile(r'^\s*\?\?\?\+?\s+note\s+"(深入|Going further)')  # folded depth: runs like the core path
README_NORUN = re.compile(r"^\s*\*\*(Not run by the tests|不在测试里运行)")
VARIES = re.compile(r"^\s*<!--\s*varies:\s*(?P<spec>[^>]*?)\s*-->\s*$")
CPU_NOTE = re.compile(r'^\s*!!!\s+cpu\b\s*"(?P<title>[^"]*)"\s*$')
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
ANCHOR = re.compile(r"\{\s*#([^\s}]+)\s*\}\s*$")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_SRC = re.compile(r"""<(?:img|a|source|iframe)\b[^>]*\b(?:src|href)=["']([^"']+)["']""")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")


LESSONS = lessons(ROOT)  # in course order: mkdocs.yml's nav (minigpt_course.lessons)


def pages(lang: str) -> list[str]:
    """Page paths relative to docs/<lang>/, sorted."""
    return sorted(p.relative_to(DOCS / lang).as_posix() for p in (DOCS / lang).rglob("*.md"))


class Site:
    """pymdownx's snippet preprocessor of one checkout, configured from its mkdocs.yml."""

    def __init__(self, root: Path = ROOT):
        import markdown
        from mkdocs.config import load_config

        self.root = Path(root).resolve()
        with contextlib.redirect_stderr(io.StringIO()):
            config = load_config(str(self.root / "mkdocs.yml"))
        self.snippet_config = dict(config.mdx_configs["pymdownx.snippets"])
        md = markdown.Markdown(extensions=["pymdownx.snippets"],
                               extension_configs={"pymdownx.snippets": self.snippet_config})
        self.preprocessor = md.preprocessors["snippet"]

    def expand(self, text: str) -> list[str]:
        """The lines of ``text`` with every include expanded (raises if a file or section is missing)."""
        return self.preprocessor.run(text.split("\n"))


NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?%?")
VERDICT = re.compile(r"\b(?:True|False|yes|no)\b")


POEM_TEXT = re.compile(r"[\u3400-\u9fff\uf900-\ufaff，。、？！；：]+")  # Han characters and their punctuation
CHECK_LINE = re.compile(r"^\s*\[(?P<body>[^\[\]]*)\]\s*$")  # a poem's check report: [五言绝句: ok; ...]


@dataclass(frozen=True)
class Varies:
    """What a shown output may differ in on another CPU, from a line such as
    ``<!--varies: numbers 0.02, verdicts, poems, AVX512|AVX2-->``: every number by at most ``numbers``
    (absolute, a percentage as the fraction it is, so 0.02 lets 10% be 9%; ``2%`` is relative), True/False and
    yes/no with ``verdicts``, and a word for another of its alternatives (``AVX512|AVX2``). With ``poems``,
    what a trained model wrote is its own: any run of Han characters and their punctuation stands for any other,
    a run of lines that hold nothing else may be longer or shorter, and a check report (``[五言绝句: ok; ...]``)
    is compared by which of its checks pass. The other words, the lines and everything else stay exact."""

    numbers: str | None = None  # as written on the page: "0.02" or "2%"
    verdicts: bool = False
    alternatives: tuple[frozenset[str], ...] = ()
    poems: bool = False

    @classmethod
    def parse(cls, spec: str) -> Varies:
        numbers, verdicts, alternatives, poems = None, False, [], False
        for item in (part.strip() for part in spec.split(",")):
            if m := re.fullmatch(r"numbers\s+±?(\d+(?:\.\d+)?(?:e-?\d+)?%?)", item):
                numbers = m.group(1)
            elif item == "verdicts":
                verdicts = True
            elif item == "poems":
                poems = True
            elif re.fullmatch(r"[\w.-]+(?:\|[\w.-]+)+", item):
                alternatives.append(frozenset(item.split("|")))
            else:
                raise ValueError(f"unknown item {item!r}: write 'numbers 0.02', 'numbers 2%', 'verdicts', "
                                 f"'poems' or alternatives such as 'AVX512|AVX2'")
        return cls(numbers, verdicts, tuple(alternatives), poems)

    def _pattern(self) -> re.Pattern:
        words = sorted({w for group in self.alternatives for w in group}, key=len, reverse=True)
        parts = [rf"(?<![\w.]){re.escape(w)}(?![\w.])" for w in words]
        parts += [VERDICT.pattern] if self.verdicts else []
        return re.compile("|".join(parts + [NUMBER.pattern]))

    def _free(self, shown: str, printed: str) -> bool:
        """May ``printed`` stand where the page shows ``shown``?"""
        if shown == printed:
            return True
        if any(shown in group and printed in group for group in self.alternatives):
            return True
        if self.verdicts and VERDICT.fullmatch(shown) and VERDICT.fullmatch(printed):
            return True
        if self.numbers is None or not (NUMBER.fullmatch(shown) and NUMBER.fullmatch(printed)):
            return False
        if shown.endswith("%") != printed.endswith("%"):
            return False
        a, b = (float(x.rstrip("%")) / (100 if x.endswith("%") else 1) for x in (shown, printed))
        if self.numbers.endswith("%"):
            return abs(a - b) <= float(self.numbers[:-1]) / 100 * abs(a) + 1e-12
        return abs(a - b) <= float(self.numbers) + 1e-12

    def _lines(self, text: str) -> list[str]:
        """``text``'s lines, with what ``poems`` lets differ put in a form that does not differ."""
        if not self.poems:
            return text.splitlines()
        out = []
        for line in text.splitlines():
            if m := CHECK_LINE.match(line):  # which checks pass, not what they found
                parts = [part.split(":", 1) for part in m.group("body").split(";")]
                line = "[" + "; ".join(p[0].strip() + (": ok" if p[1].strip() == "ok" else ": not ok")
                                       if len(p) == 2 else p[0].strip() for p in parts) + "]"
            line = POEM_TEXT.sub("〇", line)
            if not (line.strip() == "〇" and out and out[-1].strip() == "〇"):  # a poem's lines: how many is its own
                out.append(line)
        return out

    def differences(self, shown: str, printed: str) -> list[str]:
        """The lines where ``printed`` differs from ``shown`` by more than this allows (empty: it passes)."""
        a, b = self._lines(shown), self._lines(printed)
        if len(a) != len(b):
            return [f"{len(b)} lines printed, {len(a)} shown"]
        pattern, out = self._pattern(), []
        for n, (x, y) in enumerate(zip(a, b), 1):
            if x == y:
                continue
            words_x, words_y = ([" ".join(w.split()) for w in pattern.split(line)] for line in (x, y))
            values_x, values_y = ([m.group(0) for m in pattern.finditer(line)] for line in (x, y))
            if not (words_x == words_y and len(values_x) == len(values_y)
                    and all(self._free(u, v) for u, v in zip(values_x, values_y))):
                out.append(f"line {n}: shown {x!r}, printed {y!r}")
        return out


@dataclass
class Block:
    page: str  # repository-relative page path
    line: int  # page line of the opening fence (1-based)
    lang: str  # the fence's info string
    code: str  # the body as written on the page
    expected: str | None  # the shown output (the text fence after <!--pytest-codeblocks:expected-output-->)
    includes: list[str]  # the --8<-- targets in the body
    kind: str  # "script", "shown", "shell", "norun" or "other" (text, mermaid...)
    reason: str = ""  # for norun: why, as the reader sees it
    folded: bool = False  # inside a ??? fold that holds an answer (not a 深入 / Going further note)
    varies: Varies | None = None  # what may differ on another CPU (a <!--varies: ...--> line after the output)

    @property
    def name(self) -> str:
        return f"L{self.line}" + (f"[{' + '.join(self.includes)}]" if self.includes else "")

    @property
    def run_key(self) -> tuple[str, str] | None:
        """What to run: ("script", path) or ("shell", code). A shell line that runs one script is that script."""
        if self.kind == "script":
            return ("script", self.includes[0])
        if self.kind == "shell":
            m = re.fullmatch(r"python (snippets/\S+\.py)\n?", self.code)
            return ("script", m.group(1)) if m and SCRIPT.match(m.group(1)) else ("shell", self.code)
        return None


@dataclass
class Page:
    path: Path
    rel: str
    lines: list[str]
    blocks: list[Block] = field(default_factory=list)
    fenced: set[int] = field(default_factory=set)  # 0-based indices of lines inside or on a fence
    problems: list[str] = field(default_factory=list)

    @cached_property
    def prose(self) -> list[tuple[int, str]]:
        """(1-based line, text) of every line outside the fences."""
        return [(i + 1, line) for i, line in enumerate(self.lines) if i not in self.fenced]

    def headings(self) -> list[tuple[int, int, str, str | None]]:
        """(line, level, text, anchor or None) of every heading."""
        out = []
        for n, line in self.prose:
            if m := HEADING.match(line):
                a = ANCHOR.search(m.group(2))
                out.append((n, len(m.group(1)), m.group(2), a.group(1) if a else None))
        return out

    def links(self) -> list[str]:
        """Link and image targets, in order, outside code."""
        out = []
        for _n, line in self.prose:
            line = INLINE_CODE.sub("", line)
            out += [m.group(1) for m in sorted([*LINK.finditer(line), *HTML_SRC.finditer(line)], key=lambda m: m.start())]
        return out

    def includes(self) -> list[str]:
        return [inc for b in self.blocks for inc in b.includes]

    def markers(self) -> list[str]:
        return [m.group(1) + m.group(2) if m else "varies: " + v.group("spec") for _n, line in self.prose
                if (m := MARKER.match(line)) or (v := VARIES.match(line))]

    def admonitions(self) -> list[str]:
        return [m.group(2) for _n, line in self.prose if (m := re.match(r"^\s*(!!!|\?\?\?\+?)\s+([\w-]+)", line))]


def _closing(lines: list[str], start: int, fence: str) -> int:
    """Index of the line that closes the fence opened at ``start``."""
    for j in range(start + 1, len(lines)):
        if lines[j].lstrip().startswith(fence) and not lines[j].strip().strip("`"):
            return j
    return len(lines) - 1


def _varies_note(lines: list[str], index: int) -> tuple[int, int | None] | None:
    """(the <!--varies--> line, the cpu note's line or None) just after an output that ends before ``index``."""
    k = index
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k >= len(lines) or not VARIES.match(lines[k]):
        return None
    j = k + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    return k, (j if j < len(lines) and CPU_NOTE.match(lines[j]) else None)


def _container(lines: list[str], index: int) -> str | None:
    """The line that opens the block (admonition, fold) the fence at ``index`` is indented under, if any."""
    indent = len(lines[index]) - len(lines[index].lstrip())
    for k in range(index - 1, -1, -1):
        line = lines[k]
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            return line
    return None


def _readme_norun(lines: list[str], index: int) -> bool:
    """Outside the site (README.md on GitHub shows no admonitions), the marker is a paragraph just above
    the block that starts with **Not run by the tests**."""
    k = index - 1
    while k >= 0 and (not lines[k].strip() or MARKER.match(lines[k])):
        k -= 1
    while k > 0 and lines[k - 1].strip():
        k -= 1
    return k >= 0 and bool(README_NORUN.match(lines[k]))


def read_page(path: Path, site: Site) -> Page:
    """The page's blocks, sorted into kinds, and the conventions it breaks."""
    from pytest_codeblocks.main import extract_from_buffer

    path = Path(path).resolve()
    rel = path.relative_to(site.root).as_posix()
    text = path.read_text(encoding="utf-8")
    page = Page(path, rel, text.split("\n"))
    lines, problems = page.lines, page.problems
    with warnings.catch_warnings():  # `pytest-codeblocks:skip` is our documented marker, not deprecated here
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            found = extract_from_buffer(io.StringIO(text))
        except RuntimeError as e:
            problems.append(f"{rel}: {e}")
            return page

    attached: set[int] = set()  # the <!--varies--> lines and cpu notes that follow a shown output
    for cb in found:
        start = cb.lineno - 1
        fence = lines[start].lstrip()[: len(lines[start].lstrip()) - len(lines[start].lstrip().lstrip("`"))]
        end = _closing(lines, start, fence)
        page.fenced.update(range(start, end + 1))
        where = f"{rel}:{cb.lineno}"
        if cb.expected_output is not None:  # the text fence after the marker
            k = end + 1
            while not lines[k].lstrip().startswith("```"):
                k += 1
            close = _closing(lines, k, "```")
            page.fenced.update(range(k, close + 1))
            if lines[k].strip().strip("`") != "text":
                problems.append(f"{rel}:{k + 1}: an expected output must be a ```text fence")
            varies_at = _varies_note(lines, close + 1)
        else:
            varies_at = None
        lang = (cb.syntax or "").strip()
        includes = [m.group(2) for ln in cb.code.split("\n") if (m := INCLUDE.match(ln))]
        block = Block(rel, cb.lineno, lang, cb.code, cb.expected_output, includes, "other")
        if varies_at is not None:
            marker, note = varies_at
            attached.update((marker, note))
            try:
                block.varies = Varies.parse(VARIES.match(lines[marker]).group("spec"))
            except ValueError as e:
                problems.append(f"{rel}:{marker + 1}: {e}")
            title = CPU_NOTE.match(lines[note]).group("title") if note is not None else ""
            if note is None:
                problems.append(f"{rel}:{marker + 1}: a <!--varies--> line is followed by a visible "
                                f'!!! cpu "what differs on another CPU, by how much" note')
            elif block.varies and block.varies.numbers and block.varies.numbers not in title:
                problems.append(f"{rel}:{note + 1}: the cpu note must state the tolerance the test uses "
                                f"({block.varies.numbers})")
        opener = _container(lines, start) if lines[start] != lines[start].lstrip() else None
        block.folded = bool(opener and FOLD.match(opener) and not DEPTH.match(opener))
        norun = NORUN.match(opener or "") if rel.startswith("docs/") else None
        skipped = "pytest.mark.skip" in cb.marks
        if lang in RUN_LANGS:
            page.blocks.append(block)
            _classify(block, site, skipped, norun, _readme_norun(lines, start) and not rel.startswith("docs/"),
                      problems, where)
        else:
            page.blocks.append(block)
            first = re.split(r"[\s{}.=]+", lang.strip("{} .").lower())[0] if lang else ""
            if not lang:
                problems.append(f"{where}: a fence without a language; use ```python/```bash to run, ```text for output")
            elif lang.split()[0] in RUN_LANGS or first in RUN_LANGS or first in CODE_LIKE:
                problems.append(f"{where}: fence ```{lang} looks like code but would not run; "
                                f"write exactly ```python, ```bash or ```sh")
            elif lang not in OTHER_LANGS:
                problems.append(f"{where}: unknown fence language '{lang}'; use one of "
                                f"{', '.join(RUN_LANGS + tuple(sorted(OTHER_LANGS)))}")
            if skipped or includes and lang == "text":
                problems.append(f"{where}: only python, bash and sh blocks can be skipped or include files")

    for i, line in enumerate(lines):
        if i in page.fenced:
            continue
        if re.match(r"^\s*~~~", line):
            problems.append(f"{rel}:{i + 1}: a ~~~ fence is never run or checked; use ``` and a language")
        elif re.match(r"^\s*>[\s>]*```", line):
            problems.append(f"{rel}:{i + 1}: a fence inside a > quote is never run or checked; take it out")
        elif (m := MARKER.match(line)) and m.group(1).removeprefix("pytest-codeblocks:") not in ALLOWED_MARKERS:
            problems.append(f"{rel}:{i + 1}: marker {m.group(1)}{m.group(2)} is not used here; "
                            f"the runner knows only expected-output and skip (inside a norun admonition)")
        elif (VARIES.match(line) or CPU_NOTE.match(line)) and i not in attached:
            problems.append(f"{rel}:{i + 1}: a varies line and its cpu note go right after a shown output "
                            f"(the ```text fence), the line first")
        elif m := NORUN.match(line):
            if not m.group("title").strip().strip('"'):
                problems.append(f"{rel}:{i + 1}: a norun admonition needs a title that says why it is not run")
    return page


def _classify(block: Block, site: Site, skipped: bool, norun, readme_norun: bool, problems: list[str],
              where: str) -> None:
    """Set ``block.kind`` for a python/bash/sh block and note what breaks the rules."""
    visible = norun is not None or readme_norun
    if skipped or visible:
        block.kind = "norun"
        block.reason = norun.group("title").strip().strip('"') if norun else "not run by the tests (see above)"
        if not skipped:
            problems.append(f"{where}: this block is marked as not run but would run; "
                            f"put <!--pytest-codeblocks:skip--> before it, or take it out of the norun admonition")
        elif not visible:
            how = ('inside a visible !!! norun "why it is not run" admonition' if block.page.startswith("docs/")
                   else "right after a paragraph that starts with **Not run by the tests** and says why")
            problems.append(f"{where}: this {block.lang} block is skipped but the reader is not told why; put it {how}")
        return
    if block.lang != "python":
        block.kind = "shell"
        return
    body = [ln for ln in block.code.split("\n") if ln.strip()]
    if len(block.includes) != len(body):
        problems.append(f"{where}: python on a page is either run from snippets/<lesson>/NN_what.py or shown from "
                        f"a file; move this code into a script and include it with --8<-- \"snippets/...\"")
        return
    scripts = [inc for inc in block.includes if SCRIPT.match(inc)]
    if scripts and len(block.includes) == 1:
        block.kind = "script"
        if not (site.root / scripts[0]).is_file():
            problems.append(f"{where}: {scripts[0]} does not exist")
        name = Path(scripts[0]).name
        if block.folded != name[3:].startswith("answer"):
            problems.append(f"{where}: {name}: a script shown inside a ??? fold (an answer) is named "
                            f"NN_answer_*.py, and only such a script is folded (minigpt lesson leaves answers out)")
        return
    if scripts:
        problems.append(f"{where}: a script is run on its own; give {', '.join(scripts)} a block of its own")
        return
    block.kind = "shown"
    if block.expected is not None:
        problems.append(f"{where}: a shown section is not run, so it has no output to show")
    try:
        expanded = site.expand(block.code)
    except Exception as e:  # SnippetMissingError: a missing file or section
        problems.append(f"{where}: {type(e).__name__}: {e}")
        return
    if not any(ln.strip() for ln in expanded):
        problems.append(f"{where}: {' + '.join(block.includes)} is empty: the reader would see a blank block")


FIGURES = Path(tempfile.mkdtemp(prefix="minigpt-page-figures-"))  # where page scripts draw (MINIGPT_DOCS)
SCRATCH = Path(tempfile.mkdtemp(prefix="minigpt-page-tmp-"))  # their TMPDIR: what they keep there lasts one run
atexit.register(shutil.rmtree, FIGURES, ignore_errors=True)
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)


def _env() -> dict[str, str]:
    """A reader's activated venv: this venv first on PATH; one thread each, as page commands run side by side.
    A script that draws a figure writes it under MINIGPT_DOCS, a temporary folder here: a test run leaves the
    checkout as it found it (``make figures`` draws into docs/). Their TMPDIR is this run's own: what a script
    keeps there for the next one (lesson 16's trained poem model) is made afresh by each run, under the kernels
    that run uses (``make test-kernels``), never taken from an earlier run's. A check report a script prints
    comes out in both languages, framed (``minigpt_course.checks.BOTH_VAR``): each page reads its own (``seen_by``)."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
               MPLBACKEND="Agg", PYTHONHASHSEED="0", MINIGPT_DOCS=str(FIGURES), TMPDIR=str(SCRATCH),
               **{checks.BOTH_VAR: "1"})
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env.setdefault(name, "1")
    return env


_servers = threading.local()  # per runner thread: {(root, flavour): fork server}


def _fork_server(root: Path, flavour: str) -> subprocess.Popen:
    """This thread's warm interpreter for ``root`` (tools/fork_server.py), started on first use."""
    servers = _servers.__dict__.setdefault("by_key", {})
    server = servers.get((root, flavour))
    if server is None or server.poll() is not None:
        server = subprocess.Popen([sys.executable, str(Path(__file__).with_name("fork_server.py")), flavour],
                                  cwd=root, env=_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        servers[(root, flavour)] = server
    return server


def run(key: tuple[str, str], root: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    """Run one script (``python path``) or one shell block from ``root`` in a process of its own, with this
    venv first on PATH, as a reader's activated venv would. A script runs in a fork of a warm interpreter
    (tools/fork_server.py; one that has imported torch if the script names it), so that torch's import is
    paid once per worker, not once per script; MINIGPT_PAGE_FORK=0 starts ``python path`` afresh instead."""
    kind, what = key
    argv = [sys.executable, what] if kind == "script" else ["bash", "-euo", "pipefail", "-c", what]
    if kind == "script" and os.environ.get("MINIGPT_PAGE_FORK", "1") != "0":
        flavour = "torch" if re.search(r"\btorch\b", (Path(root) / what).read_text(encoding="utf-8")) else "numpy"
        server = _fork_server(Path(root).resolve(), flavour)
        server.stdin.write(json.dumps({"path": what, "timeout": timeout}) + "\n")
        server.stdin.flush()
        answer = json.loads(server.stdout.readline())
        return subprocess.CompletedProcess(argv, answer["returncode"], answer["stdout"], answer["stderr"])
    try:
        return subprocess.run(argv, cwd=root, env=_env(), capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else e.stdout or ""
        return subprocess.CompletedProcess(argv, -1, out, f"timed out after {timeout} s")


class RunLock:
    """Page commands share the machine; a command that times itself (``times_itself``) runs alone.

    ``shared()`` is held while an ordinary command runs (several at once); ``alone()`` waits until none runs,
    and keeps new ones from starting until it is done. A context manager each."""

    def __init__(self):
        self._cond = threading.Condition()
        self._running = 0
        self._alone = False

    @contextlib.contextmanager
    def shared(self):
        with self._cond:
            self._cond.wait_for(lambda: not self._alone)
            self._running += 1
        try:
            yield
        finally:
            with self._cond:
                self._running -= 1
                self._cond.notify_all()

    @contextlib.contextmanager
    def alone(self):
        with self._cond:
            self._cond.wait_for(lambda: not self._alone)
            self._alone = True
            self._cond.wait_for(lambda: self._running == 0)
        try:
            yield
        finally:
            with self._cond:
                self._alone = False
                self._cond.notify_all()


def times_itself(key: tuple[str, str], root: Path) -> bool:
    """Does this page command print a claim about its own speed (a script that reads ``time.perf_counter``)?
    Such a command runs alone (``RunLock.alone``): beside other commands its timings would measure them."""
    kind, what = key
    return kind == "script" and "perf_counter" in (Path(root) / what).read_text(encoding="utf-8")


def prints_reports(key: tuple[str, str] | None, root: Path = ROOT) -> bool:
    """Does this page command print check reports, each page's in its own language (``seen_by``)? A script
    that imports from ``minigpt_course.checks`` may: the twin pages' outputs of such a script differ."""
    if not key or key[0] != "script" or not (Path(root) / key[1]).is_file():
        return False
    tree = ast.parse((Path(root) / key[1]).read_text(encoding="utf-8"))
    modules = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    return any(m == "minigpt_course.checks" or m.startswith("minigpt_course.checks.") for m in modules)


def page_language(page: str) -> str:
    """The language of a page (repository-relative): "zh" under docs/zh/, else "en" (docs/en/, README.md)."""
    return "zh" if page.startswith("docs/zh/") else "en"


def seen_by(done: subprocess.CompletedProcess, lang: str) -> subprocess.CompletedProcess:
    """``done`` as a reader whose language is ``lang`` sees it. A command runs once for both pages, with
    $MINIGPT_BOTH_LANGS set: each check report a script prints (``str(result)``, the only place where a
    script's output depends on the reader's language, ``minigpt_course.checks.language``) is framed in both
    languages, and here each frame becomes the rendering a reader's own run prints in ``lang``. Everything
    else the script printed is the same run's, for both pages: so the Chinese page shows what a run with
    MINIGPT_LANG=zh prints, without running the script twice (tests/test_page_runner.py compares the two)."""
    return subprocess.CompletedProcess(done.args, done.returncode, checks.framed(done.stdout or "", lang),
                                       checks.framed(done.stderr or "", lang))


def report(block: Block, done: subprocess.CompletedProcess) -> str | None:
    """What is wrong with ``block``, given its command's run: a failure, unshown output, or a diff; else None.
    A check report in the run's output is read in the page's language (``seen_by``)."""
    done = seen_by(done, page_language(block.page))
    where = f"{block.page}:{block.line}" + (f" ({' + '.join(block.includes)})" if block.includes else "")
    command = f"python {block.run_key[1]}" if block.run_key[0] == "script" else block.code.rstrip()
    if done.returncode != 0:
        return (f"{where}: `{command}` exited with status {done.returncode}\n\n--- stderr ---\n"
                f"{done.stderr.rstrip()}\n--- stdout ---\n{done.stdout.rstrip()}")
    if block.expected is None:  # a script prints what its page shows; a shell command may say more than the page
        if block.kind == "script" and done.stdout.strip():
            return f"{where}: `{command}` prints output that the page does not show:\n{done.stdout}"
        return None
    if done.stdout != block.expected:
        beyond = block.varies.differences(block.expected, done.stdout) if block.varies else None
        if beyond == []:
            return None  # within what the page's cpu note says another CPU prints
        diff = "".join(difflib.unified_diff(block.expected.splitlines(True), done.stdout.splitlines(True),
                                            "shown on the page", "printed by the code"))
        allowed = (f" by more than its cpu note allows ({'; '.join(beyond[:3])})" if beyond else "")
        return (f"{where}: the output shown on the page differs from what `{command}` prints{allowed}\n\n{diff}")
    return None
