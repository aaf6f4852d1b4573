"""Read the course pages as Markdown source: pages, headings, fences, links, markers.

Shared by tests/test_pages.py and tests/test_parity.py.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LANGS = ("zh", "en")

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
ANCHOR = re.compile(r"\{\s*#([^\s}]+)\s*\}\s*$")
ANCHOR_OK = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
MARKER = re.compile(r"^\s*<!--[-\s]*(pytest[-.][^>]*?)[-\s]*-->\s*$")
INCLUDE = re.compile(r"""^\s*-{1,}8<-{1,}\s+(["'])(.+?)\1\s*$""")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
HTML_SRC = re.compile(r"""<(?:img|a|source|iframe)\b[^>]*\b(?:src|href)=["']([^"']+)["']""")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef“”‘’—…·]")


def pages(lang: str) -> list[str]:
    """Page paths relative to docs/<lang>/, sorted."""
    base = DOCS / lang
    return sorted(p.relative_to(base).as_posix() for p in base.rglob("*.md"))


@dataclass
class Fence:
    line: int  # 1-based line of the opening fence
    info: str
    body: str


@dataclass
class Source:
    path: Path
    rel: str
    lines: list[str]
    fences: list[Fence]
    prose: list[tuple[int, str]]  # (line, text) outside fences

    @classmethod
    def read(cls, path: Path) -> "Source":
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        fences, prose = [], []
        i = 0
        while i < len(lines):
            m = FENCE.match(lines[i])
            if m:
                indent, fence, info = len(m.group(1)), m.group(2), m.group(3).strip()
                j = i + 1
                while j < len(lines):
                    s = lines[j].lstrip()
                    if s.startswith(fence) and s.strip(fence[0]).strip() == "":
                        break
                    j += 1
                body = "\n".join(ln[min(indent, len(ln) - len(ln.lstrip(" "))):] for ln in lines[i + 1 : j])
                fences.append(Fence(i + 1, info, body))
                i = j + 1
                continue
            prose.append((i + 1, lines[i]))
            i += 1
        return cls(path, path.relative_to(ROOT).as_posix(), lines, fences, prose)

    def headings(self) -> list[tuple[int, int, str, str | None]]:
        """(line, level, text, anchor or None) for each ATX heading outside fences."""
        out = []
        for n, line in self.prose:
            m = HEADING.match(line)
            if m:
                a = ANCHOR.search(m.group(2))
                out.append((n, len(m.group(1)), m.group(2), a.group(1) if a else None))
        return out

    def links(self) -> list[str]:
        """Link and image targets in order (outside code)."""
        out = []
        for _n, line in self.prose:
            line = INLINE_CODE.sub("", line)
            for m in sorted(
                [*LINK.finditer(line), *AUTOLINK.finditer(line), *HTML_SRC.finditer(line)],
                key=lambda m: m.start(),
            ):
                out.append(m.group(1))
        return out

    def includes(self) -> list[str]:
        out = []
        for f in self.fences:
            for ln in f.body.split("\n"):
                m = INCLUDE.match(ln)
                if m:
                    out.append(m.group(2))
        for _n, line in self.prose:
            m = INCLUDE.match(line)
            if m:
                out.append(m.group(2))
        return out

    def markers(self) -> list[str]:
        return [m.group(1).strip() for _n, line in self.prose if (m := MARKER.match(line))]

    def admonitions(self) -> list[str]:
        out = []
        for _n, line in self.prose:
            m = re.match(r"^\s*(!!!|\?\?\?\+?)\s+([\w-]+)", line)
            if m:
                out.append(m.group(2))
        return out


def strip_comments(info: str, body: str) -> str:
    """Code without its comments and trailing spaces, for comparing twin pages."""
    lang = info.split()[0] if info else ""
    if lang == "python":
        try:
            toks = [t for t in tokenize.generate_tokens(io.StringIO(body + "\n").readline)
                    if t.type != tokenize.COMMENT]
            body = tokenize.untokenize(toks)
        except (tokenize.TokenError, IndentationError, SyntaxError):
            body = "\n".join(re.sub(r"(^|\s)#.*$", "", ln) for ln in body.split("\n"))
    elif lang in ("bash", "sh"):
        body = "\n".join(re.sub(r"(^|\s)#(?!!).*$", "", ln) for ln in body.split("\n"))
    lines = [ln.rstrip() for ln in body.split("\n")]
    return "\n".join(ln for ln in lines if ln.strip())
