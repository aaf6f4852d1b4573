"""Checks for the lesson (``train/sampling``): the reader's top-p (nucleus) filter.

``check_top_p(fn)`` calls ``fn(probs, top_p)`` on rows of probabilities (B, V) and wants what
``minigpt.sampling.sample`` draws from: in each row, the smallest set of most likely tokens whose
probability reaches ``top_p`` (a token is dropped once the tokens ranked above it hold ``top_p``; the most
likely token is always kept), the rest set to 0, the kept ones divided by their sum. It returns a Result:
``"<name>: passed ..."``, or ``"<name>: not yet"`` with the case, the expected and the returned rows, and
what the difference usually means. An error raised by ``fn`` is reported the same way, with its line.
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import (Check, Lesson, Message, Result, error_text, name_of, not_yet, passed, show, source_file,
                            speaker, where)

MESSAGES = {
    "sorted": ("sorted row, top_p 0.7", "排好序的一行，top_p 0.7"),
    "out_of_order": ("the same probabilities out of order", "同样的概率，顺序打乱"),
    "one_above": ("one token above top_p on its own", "单个词元就超过 top_p"),
    "exactly": ("the first two hold exactly top_p", "前两个加起来恰好是 top_p"),
    "two_rows": ("two rows, a peaked one and a flat one", "两行，一行很尖、一行很平"),
    "top_p_1": ("top_p 1: nothing dropped", "top_p 1：什么也不丢"),
    "case": ("  {what}: probs {probs}, top_p {top_p}\n    expected {want}", "  {what}：probs {probs}，top_p {top_p}\n    期望     {want}"),
    "none": ("    got      None: return the filtered probabilities", "    得到     None：要返回筛过的概率"),
    "not_numbers": ("    got      {got}, which is not an array of numbers", "    得到     {got}，这不是数值数组"),
    "shape": ("    got      an array of shape {shape}: one row of V probabilities per input row, {want}",
              "    得到     形状为 {shape} 的数组：每个输入行对应一行 V 个概率，应该是 {want}"),
    "changed": ("    got      {got}, and probs was changed to {given}:\n"
                "  work on a copy (np.where, or probs.copy()): sample() still needs the caller's array",
                "    得到     {got}，而且 probs 被改成了 {given}：\n"
                "  要在副本上改（np.where，或者 probs.copy()）：sample() 还要用调用方的数组"),
    # what a difference usually means
    "unchanged": ("  probs came back as they went in: nothing was dropped", "  probs 原样返回了：什么也没丢掉"),
    "crossing": ("  the token that crosses top_p is dropped, so the kept tokens hold less than top_p (and a row whose most "
                 "likely token alone passes top_p keeps nothing): drop a token only once the tokens ranked above it hold "
                 "top_p",
                 "  越过 top_p 的那个词元被丢掉了，留下的词元加起来不到 top_p（最可能的词元一个就超过 top_p 的行，什么也留不下）："
                 "只有排在前面的词元已经凑够 top_p 时，才丢掉后面的词元"),
    "one_too_many": ("  one token too many: a token whose more likely tokens already hold exactly top_p is dropped "
                     "(compare the mass above it with >=, not >)",
                     "  多留了一个词元：排在它前面的词元加起来已经恰好是 top_p 时，它就该丢掉（拿它前面的概率和跟 top_p 比，用 >=，不是 >）"),
    "by_index": ("  the first tokens by index are kept: rank the tokens by probability, most likely first, before summing",
                 "  留下的是下标最小的几个词元：求和之前要先按概率排序，最可能的在前"),
    "least_likely": ("  the least likely tokens are kept: sort in decreasing order (np.argsort(-probs)), the most likely first",
                     "  留下的是最不可能的词元：要按从大到小排序（np.argsort(-probs)），最可能的在前"),
    "empty_row": ("  a row kept no token (or holds nan): the most likely token is always kept, even when it alone has more "
                  "than top_p",
                  "  有一行一个词元也没留下（或者出现了 nan）：最可能的词元总要留下，哪怕它一个就超过了 top_p"),
    "not_normalised": ("  the right tokens are kept, but the rows sum to {sums}: divide the kept probabilities by their sum, "
                       "so that each row sums to 1",
                       "  留下的词元对了，可各行加起来是 {sums}：要把留下的概率除以它们的和，让每一行加起来是 1"),
    "compare": ("  compare the kept tokens with the expected ones, row by row", "  逐行对比留下的词元和期望的词元"),
    "passed": ("{name}: passed (all {n} cases: ties at top_p, a peaked row, rows out of order, a batch)",
               "{name}：通过（全部 {n} 种情形：恰好等于 top_p、很尖的一行、乱序的行、一批多行）"),
}
say = speaker(__name__)

# (what the case tests: its message, probs (B, V), top_p)
CASES = (
    (say("sorted"), [[0.5, 0.3, 0.15, 0.05]], 0.7),
    (say("out_of_order"), [[0.05, 0.3, 0.5, 0.15]], 0.7),
    (say("one_above"), [[0.95, 0.03, 0.02]], 0.9),
    (say("exactly"), [[0.5, 0.25, 0.125, 0.125]], 0.75),
    (say("two_rows"), [[0.7, 0.2, 0.1, 0.0], [0.25, 0.25, 0.25, 0.25]], 0.6),
    (say("top_p_1"), [[0.4, 0.3, 0.2, 0.1]], 1.0),
)


def _nucleus(probs: np.ndarray, top_p: float, order=lambda row: np.argsort(-row, kind="stable"),
             stop=lambda before, p, top_p: before >= top_p) -> np.ndarray:
    """Each row filtered: tokens taken in ``order`` until ``stop`` says so, then renormalised."""
    out = np.zeros_like(probs)
    for b, row in enumerate(probs):
        before = 0.0  # the probability of the tokens taken so far
        for t in order(row):
            if stop(before, row[t], top_p):
                break
            out[b, t] = row[t]
            before += row[t]
        total = out[b].sum()
        out[b] = out[b] / total if total > 0 else np.nan
    return out


def reference(probs: np.ndarray, top_p: float) -> np.ndarray:
    """The filter ``sample`` applies, row by row, written out plainly: most likely first, a token dropped
    once the tokens above it hold top_p."""
    return _nucleus(probs, top_p)


# the usual wrong filters: the key of the message that says what each means -> the filter
MISTAKES = {
    "crossing": lambda probs, p: _nucleus(probs, p, stop=lambda before, x, top_p: before + x > top_p),
    "one_too_many": lambda probs, p: _nucleus(probs, p, stop=lambda before, x, top_p: before > top_p),
    "by_index": lambda probs, p: _nucleus(probs, p, order=lambda row: np.arange(len(row))),
    "least_likely": lambda probs, p: _nucleus(probs, p, order=lambda row: np.argsort(row, kind="stable")),
}


def _diagnose(probs: np.ndarray, top_p: float, want: np.ndarray, got: np.ndarray) -> Message:
    if np.allclose(got, probs):
        return say("unchanged")
    for key, wrong in MISTAKES.items():
        if np.allclose(np.nan_to_num(got, nan=-1.0), np.nan_to_num(wrong(probs, top_p), nan=-1.0)):
            return say(key)
    if not np.all(np.isfinite(got)) or np.any(~(got > 0).any(axis=-1)):
        return say("empty_row")
    if np.array_equal(want > 0, got > 0):
        return say("not_normalised", sums=show(got.sum(axis=-1)))
    return say("compare")


def check_top_p(fn) -> Result:
    """``fn(probs, top_p)`` must return ``probs`` (B, V) filtered to each row's nucleus and renormalised,
    without changing ``probs`` itself."""
    name = name_of(fn)
    for what, rows, top_p in CASES:
        probs = np.array(rows, dtype=np.float64)
        want = reference(probs, top_p)
        given = probs.copy()
        head = say("case", what=what, probs=show(probs), top_p=show(top_p), want=show(want))
        try:
            got = fn(given, top_p)
        except Exception as e:  # the reader's error, next to what was expected
            return not_yet(name, head, Message("got_error_in", {"error": error_text(e),
                                                                "where": where(e, source_file(fn))}))
        if got is None:
            return not_yet(name, head, say("none"))
        try:
            got = np.asarray(got, dtype=np.float64)
        except (TypeError, ValueError):
            return not_yet(name, head, say("not_numbers", got=repr(got)))
        if got.shape != want.shape:
            return not_yet(name, head, say("shape", shape=got.shape, want=want.shape))
        if not np.array_equal(given, probs):
            return not_yet(name, head, say("changed", got=show(got), given=show(given)))
        if not np.allclose(got, want, rtol=1e-9, atol=1e-12):
            return not_yet(name, head, Message("got_in", {"what": show(got)}), _diagnose(probs, top_p, want, got))
    return passed(name, say("passed", n=len(CASES)))


LESSON = Lesson("sampling", starts={"sampling.py": (
    "top_p: a batch of distributions cut to each row's nucleus", "top_p：把每一行概率分布裁到它的核（nucleus）")},
    introduces=(("sampling.py", "top_p"),),
    checks=(Check("top_p", "top-k-top-p", lambda wb: check_top_p(wb.get("sampling.py", "top_p"))),))
