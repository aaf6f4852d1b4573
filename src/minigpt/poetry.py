"""The four regulated forms of Tang poetry, checked by shape.

A *line* (句) is a run of characters closed by one punctuation mark from ``LINE_ENDS``.
The source data stores a couplet (联) per entry, "床前明月光，疑是地上霜。", which is two lines:
"床前明月光，" and "疑是地上霜。". A couplet is "xxxxx，xxxxx。": its first line ends in a pause
(，；？！) and its second in a full stop (。？！).

A jueju (绝句) is 4 lines, a lüshi (律诗) is 8 lines; wuyan (五言) lines have 5 characters, qiyan
(七言) lines 7. Only the shape is checked: tone patterns and rhyme are not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LINE_ENDS = "，。？！；"
FIRST_LINE_ENDS = "，；？！"  # the first line of a couplet ends in a pause
SECOND_LINE_ENDS = "。？！"  # the second line of a couplet ends the sentence

# form -> (number of lines, characters per line)
FORMS: dict[str, tuple[int, int]] = {
    "五言绝句": (4, 5),
    "七言绝句": (4, 7),
    "五言律诗": (8, 5),
    "七言律诗": (8, 7),
}

# short names a reader may type; the canonical names above are always accepted too
FORM_ALIASES: dict[str, str] = {
    "五绝": "五言绝句", "七绝": "七言绝句", "五律": "五言律诗", "七律": "七言律诗",
    "wujue": "五言绝句", "qijue": "七言绝句", "wulv": "五言律诗", "qilv": "七言律诗",
}

_LINE = re.compile(f"[^{LINE_ENDS}]*[{LINE_ENDS}]")
_SPACE = re.compile(r"\s+")
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]*")  # CJK ideographs


@dataclass(frozen=True)
class FormCheck:
    ok: bool  # True when the text has exactly the form's shape
    reason: str  # why not (or "ok"), in words a reader can act on

    def __bool__(self) -> bool:
        return self.ok


def normalize_form(form: str) -> str:
    """The canonical name of ``form`` ("七绝" -> "七言绝句"); unknown forms raise ValueError."""
    if isinstance(form, str) and form.strip() in FORMS:
        return form.strip()
    if isinstance(form, str) and form.strip().lower() in FORM_ALIASES:
        return FORM_ALIASES[form.strip().lower()]
    known = ", ".join(FORMS) + " (or " + ", ".join(FORM_ALIASES) + ")"
    raise ValueError(f"form must be one of {known}; got {form!r}")


def split_lines(text: str) -> list[str]:
    """The lines of ``text``, each with its closing punctuation; whitespace is ignored.

    Text after the last punctuation mark (an unfinished line) is returned as a last line
    without punctuation, so a checker can complain about it.
    """
    text = _SPACE.sub("", text)
    lines = _LINE.findall(text)
    rest = text[sum(len(line) for line in lines):]
    return lines + [rest] if rest else lines


def check_form(text: str, form: str) -> FormCheck:
    """Does ``text`` have the shape of ``form``? The reason names the first thing that is off."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    form = normalize_form(form)
    n_lines, n_chars = FORMS[form]
    lines = split_lines(text)
    if len(lines) != n_lines:
        return FormCheck(False, f"{form} has {n_lines} lines, the text has {len(lines)}")
    for i, line in enumerate(lines, 1):
        body, end = (line[:-1], line[-1]) if line[-1] in LINE_ENDS else (line, "")
        if len(body) != n_chars:
            return FormCheck(False, f"line {i} has {len(body)} characters, {form} needs {n_chars}: {line}")
        if not _HAN.fullmatch(body):
            return FormCheck(False, f"line {i} has a character that is not a Chinese character: {line}")
        expected = FIRST_LINE_ENDS if i % 2 else SECOND_LINE_ENDS
        if end not in expected or not end:
            where = "first" if i % 2 else "second"
            return FormCheck(
                False,
                f"line {i} ends with {repr(end) if end else 'no punctuation'}; the {where} line of a couplet ends with "
                f"{'，' if i % 2 else '。'} (a couplet is {'x' * n_chars}，{'x' * n_chars}。)",
            )
    return FormCheck(True, "ok")


def format_poem(text: str) -> str:
    """``text`` with one couplet (two lines) per row, the way poems are printed."""
    lines = split_lines(text)
    return "\n".join("".join(lines[i : i + 2]) for i in range(0, len(lines), 2))


def classify(text: str) -> str | None:
    """The form whose shape ``text`` has, or None."""
    lines = split_lines(text)
    for form, (n_lines, n_chars) in FORMS.items():
        # only the form with this many lines of this length can fit; check_form checks the rest
        if len(lines) == n_lines and len(lines[0]) - 1 == n_chars:
            return form if check_form(text, form).ok else None
    return None
