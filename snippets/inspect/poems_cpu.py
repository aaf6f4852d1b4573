"""What this lesson has of the course's trained poems-cpu model (4 layers x 4 heads, 128 wide, 2500 steps of the
preset, documented in benchmarks/records/2026-12-06-poems-cpu/): its attention weights, exported by ``make figures``
(``minigpt attention``) for the attention explorer, and the records of its training and benchmark runs."""

import csv
import json
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
EXPLORER = ROOT / "docs" / "assets" / "explorer" / "attention.json"
RECORD = ROOT / "benchmarks" / "records" / "2026-12-06-poems-cpu"
MARKS = {"<sep>", "，", "。", "？", "！", "；"}  # what ends the prompt's parts and the poem's lines


def load_maps():
    """(model facts, poems): each poem a dict with ``tokens`` and ``att`` (L, H, T, T) float; row t is what
    position t looks at while it writes tokens[t + 1]."""
    data = json.loads(EXPLORER.read_text(encoding="utf-8"))
    for poem in data["poems"]:
        rows = poem.pop("attn")  # [l][h][t]: the t + 1 weights of row t, in thousandths
        L, H, T = len(rows), len(rows[0]), len(rows[0][0])
        att = np.zeros((L, H, T, T))
        for l in range(L):
            for h in range(H):
                for t, row in enumerate(rows[l][h]):
                    att[l, h, t, : t + 1] = np.array(row) / data["scale"]
        poem["att"] = att
    return data["model"], data["poems"]


def body_start(tokens):
    """The row that writes the poem's first character: the second <sep>."""
    return [i for i, t in enumerate(tokens) if t == "<sep>"][1]


COLUMNS = ("just before", "2 before", "line start", "form", "line ends", "largest")


def head_shares(tokens, att, shares=None):
    """Adds to ``shares`` ((layer, head) -> one list per COLUMNS entry) the weight each row that writes the
    poem gives the character just before the one it writes, the one before that, the mark where the current
    line starts, the form's tokens, the earlier lines' last characters; and the row's largest weight."""
    shares = {} if shares is None else shares
    form = range(1, tokens.index("<sep>"))  # 七 言 绝 句
    ends = [i for i in range(len(tokens) - 1) if tokens[i + 1] in "，。？！；" and tokens[i] not in MARKS]
    for t in range(body_start(tokens), len(tokens) - 1):  # row t reads tokens[t] and writes tokens[t + 1]
        mark = max(i for i in range(t + 1) if tokens[i] in MARKS)  # where the current line starts
        groups = ([t], [t - 1], [mark], list(form), [e for e in ends if e <= t])
        for l, h in np.ndindex(att.shape[:2]):
            row = att[l, h, t]  # (T,)
            cells = shares.setdefault((l, h), [[] for _ in COLUMNS])
            for cell, where in zip(cells, groups):
                cell.append(row[where].sum())
            cells[-1].append(row.max())
    return shares


def bench_record():
    """The lines of ``minigpt bench poems --samples 200`` on poems-cpu: {name: {column: value}}, and the text."""
    text = (RECORD / "bench-poems.txt").read_text(encoding="utf-8")
    rows = {}
    for name in ("free", "strict 1x", "--strict", "real poems"):
        line = next(x for x in text.splitlines() if x.strip().startswith(name + " "))
        nums = re.findall(r"\d+\.\d+|\d+", line[len(name) + 2:])
        rows[name] = dict(zip(("form", "rhyme", "tone"), map(float, nums[:3])))
    by_form = re.search(r"rhyme / tone share by form \(free, --strict, real\): (.*)", text).group(1)
    forms = {}
    for part in by_form.split("; "):
        form, *cells = part.replace(",", "").split()
        forms[form] = [tuple(float(v) for v in c.rstrip("%").replace("%", "").split("/")) for c in cells]
    val = re.search(r"validation loss (\d+\.\d+) nats/char over ([\d,]+) tokens", text)
    return {"rows": rows, "forms": forms, "val_loss": float(val.group(1)), "val_tokens": val.group(2)}


def train_log():
    """(step, validation loss) of the poems-cpu training run, every 500 steps."""
    with open(RECORD / "train-log.csv", encoding="utf-8") as f:
        return [(int(r["step"]), float(r["val_loss"])) for r in csv.DictReader(f)]
