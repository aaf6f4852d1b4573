"""Checks for the exercises of the lesson ``lm/bigram``.

``check_smoothed(fn)`` calls a reader's ``fn(counts, alpha)`` on a small table of pair counts and
returns one report: ``"<name>: passed ..."``, or ``"<name>: not yet"`` followed by the first row that
differs, what was expected, what the function gave, and, when the numbers match a known mistake,
which one. An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Check, Lesson, Result, name_of, not_yet, passed, reader_errors, speaker

CHARS = "abc$"  # the check's vocabulary: N[a, b] = how often b follows a
COUNTS = np.array([[0, 3, 1, 0],
                   [2, 0, 0, 2],
                   [1, 1, 0, 0],
                   [0, 0, 0, 0]])  # "$" is never followed by anything: a row of zeros
ALPHAS = (1.0, 0.5)


def _right(counts: np.ndarray, alpha: float) -> np.ndarray:
    V = counts.shape[1]
    return (counts + alpha) / (counts.sum(axis=1, keepdims=True) + alpha * V)


MESSAGES = {
    "expected": ("{name}(counts, alpha) -> (V, V), row a = (N[a] + alpha) / (N[a].sum() + alpha * V)",
                 "{name}(counts, alpha) -> (V, V)，第 a 行 = (N[a] + alpha) / (N[a].sum() + alpha * V)"),
    "alpha_once": ("  the denominator adds alpha once, but each of the V cells of the row got alpha:\n"
                   "  divide by N[a].sum() + alpha * V, and every row sums to 1",
                   "  分母只加了一次 alpha，可这一行的 V 个格子每个都加了 alpha：\n"
                   "  要除以 N[a].sum() + alpha * V，这样每一行加起来才是 1"),
    "columns": ("  that normalises columns (sum over axis 0): the row of a is P(. | a),\n"
                "  so divide by the sum over axis 1, the next tokens",
                "  这是按列归一化（沿 axis 0 求和）：a 那一行是 P(. | a)，\n  所以要除以沿 axis 1 的和，也就是对下一个词元求和"),
    "no_alpha": ("  alpha was not added: an unseen pair still gets P = 0 and costs -ln 0 = inf",
                 "  没有加 alpha：没见过的组合概率还是 0，损失是 -ln 0 = inf"),
    "shape": ("  counts {counts}, alpha={alpha}: expected shape {want}, got {got}",
              "  计数 {counts}，alpha={alpha}：形状应该是 {want}，得到的是 {got}"),
    "row": ("  alpha={alpha}, row {row} (counts {counts}):\n    expected {want}, sum {want_sum:.4f}\n"
            "    got      {got}, sum {got_sum:.4f}",
            "  alpha={alpha}，第 {row} 行（计数 {counts}）：\n    期望     {want}，和为 {want_sum:.4f}\n"
            "    得到     {got}，和为 {got_sum:.4f}"),
    "passed": ("{name}: passed (alpha {alphas}: every row sums to 1, the never-seen row {unseen} is uniform)",
               "{name}：通过（alpha {alphas}：每一行加起来都是 1，从没见过的那一行 {unseen} 是均匀分布）"),
}
say = speaker(__name__)

MISTAKES = {
    "alpha_once": lambda N, a: (N + a) / (N.sum(axis=1, keepdims=True) + a),
    "columns": lambda N, a: (N + a) / (N.sum(axis=0, keepdims=True) + a * N.shape[0]),
    "no_alpha": lambda N, a: N / np.maximum(N.sum(axis=1, keepdims=True), 1),
}


def _show(a) -> list:
    return np.round(np.asarray(a, dtype=np.float64), 4).tolist()


@reader_errors("expected")
def check_smoothed(fn) -> Result:
    """``fn(counts, alpha)`` must return (V, V) with row a = (N[a] + alpha) / (N[a].sum() + alpha * V)."""
    name = name_of(fn)
    for alpha in ALPHAS:
        got = np.asarray(fn(COUNTS.copy(), alpha), dtype=np.float64)
        want = _right(COUNTS, alpha)
        if got.shape != want.shape:
            return not_yet(name, say("shape", counts=COUNTS.shape, alpha=alpha, want=want.shape, got=got.shape))
        for i, c in enumerate(CHARS):
            if np.allclose(got[i], want[i], rtol=1e-9, atol=1e-12):
                continue
            row = say("row", alpha=alpha, row=repr(c), counts=COUNTS[i].tolist(), want=_show(want[i]),
                      want_sum=want[i].sum(), got=_show(got[i]), got_sum=got[i].sum())
            for key, wrong in MISTAKES.items():
                with np.errstate(divide="ignore", invalid="ignore"):
                    if np.allclose(got, wrong(COUNTS, alpha), rtol=1e-9, atol=1e-12):
                        return not_yet(name, row, say(key))
            return not_yet(name, row)
    return passed(name, say("passed", alphas=", ".join(str(a) for a in ALPHAS), unseen=repr(CHARS[-1])))


LESSON = Lesson("bigram", starts={"lm.py": (
    "the language models before attention: smoothed bigram counts (bigram), concat_window (context)",
    "注意力之前的语言模型：平滑的二元计数（bigram）、concat_window（context）")},
    introduces=(("lm.py", "smoothed"),),
    checks=(Check("smoothed", "unseen", lambda wb: check_smoothed(wb.get("lm.py", "smoothed"))),))
