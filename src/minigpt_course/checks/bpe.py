"""Checks for the lesson ``appendix/bpe``: the reader's ``merge(ids, pair, new_id)``, one step of byte-pair
encoding.

``check_merge(fn)`` calls ``fn`` on small lists of ids and wants what ``minigpt.bpe.merge`` returns: a new
list in which every occurrence of ``pair``, read left to right, is one ``new_id``; an id joins at most one
pair (``[7, 7, 7]`` with the pair ``(7, 7)`` is ``[256, 7]``), and the list it was given is left as it was. A
wrong result is compared with the usual wrong merges, and the report names the one it matches.
"""

from __future__ import annotations

from minigpt_course.checks import (Check, Lesson, Message, Result, error_text, name_of, not_yet, passed, source_file,
                                   speaker, where)

MESSAGES = {
    "case": ("  merge({ids}, pair={pair}, new_id={new_id}) ({what})\n    expected {want}",
             "  merge({ids}, pair={pair}, new_id={new_id})（{what}）\n    期望     {want}"),
    "twice": ("the pair twice", "这一对出现两次"),
    "at_end": ("the pair at the end", "这一对在末尾"),
    "overlap": ("three equal ids in a row", "连续三个相同的 id"),
    "absent": ("the pair is not there", "没有这一对"),
    "split": ("the two ids apart, then in order", "两个 id 先分开，再按顺序出现"),
    "short": ("a list of one id", "只有一个 id 的列表"),
    "none": ("    got      None: return the new list", "    得到     None：要返回新列表"),
    "not_ids": ("    got      {got}, which is not a list of ids", "    得到     {got}，这不是一串 id"),
    "changed": ("    got      {got}, and the ids it was given became {given}: build a new list, the caller still "
                "needs its own",
                "    得到     {got}，而且传进来的 ids 变成了 {given}：要建一个新列表，调用方还要用原来的"),
    # what a wrong result usually means
    "first_only": ("  only the first occurrence is merged: go on to the end of the list, a merge replaces every occurrence",
                   "  只合并了第一处：要一直走到列表末尾，一次合并要替换所有出现的地方"),
    "keeps_second": ("  the second id of each merged pair is still there: after a merge, step past both ids (i += 2)",
                     "  合并过的那一对，第二个 id 还留着：合并之后要跳过两个 id（i += 2）"),
    "drops_last": ("  the last id is lost: a loop over the pairs (range(len(ids) - 1)) never reaches the last id on its own; "
                   "append it when no pair took it",
                   "  最后一个 id 丢了：按对循环（range(len(ids) - 1)）走不到单独剩下的最后一个 id；没被合并的话要把它补上"),
    "overlapping": ("  every overlapping occurrence became new_id: an id joins at most one pair, read left to right, "
                    "so [7, 7, 7] is [256, 7]",
                    "  重叠的每一处都换成了 new_id：一个 id 最多属于一对，从左往右读，所以 [7, 7, 7] 是 [256, 7]"),
    "compare": ("  compare the two lists position by position", "  逐个位置对比这两个列表"),
    "passed": ("{name}: passed (all {n} cases: twice, at the end, overlapping, absent, one id; the input left as it was)",
               "{name}：通过（全部 {n} 种情形：出现两次、在末尾、重叠、没有、只有一个 id；传入的列表没有被改动）"),
}
say = speaker(__name__)

# (what the case tests, ids, pair, new_id)
CASES = (
    ("twice", [1, 2, 3, 1, 2], (1, 2), 256),
    ("at_end", [5, 3, 1, 2], (1, 2), 256),
    ("overlap", [7, 7, 7], (7, 7), 256),
    ("absent", [1, 3, 2], (1, 2), 256),
    ("split", [2, 1, 9, 1, 2, 2], (1, 2), 300),
    ("short", [4], (4, 4), 256),
)


def reference(ids: list[int], pair: tuple[int, int], new_id: int, first_only=False, step=2, last=True) -> list[int]:
    """``minigpt.bpe.merge`` written out plainly; the keywords make the usual wrong ones."""
    out, i, done = [], 0, False
    while i < len(ids) - (0 if last else 1):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair and not done:
            out.append(new_id)
            i += step
            done = first_only
        else:
            out.append(ids[i])
            i += 1
    return out


def overlapping(ids, pair, new_id):
    """Every position where the pair starts replaced, overlaps and all, the id after it dropped."""
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2 if i + 2 >= len(ids) or ids[i + 1] != ids[i + 2] else 1
        else:
            out.append(ids[i])
            i += 1
    return out


MISTAKES = {
    "first_only": lambda ids, pair, new: reference(ids, pair, new, first_only=True),
    "keeps_second": lambda ids, pair, new: reference(ids, pair, new, step=1),
    "drops_last": lambda ids, pair, new: reference(ids, pair, new, last=False),
    "overlapping": overlapping,
}


def check_merge(fn) -> Result:
    """``fn(ids, pair, new_id)`` must return a new list: ``ids`` with every occurrence of ``pair`` (left to
    right, an id in at most one pair) replaced by ``new_id``, and ``ids`` itself unchanged."""
    name = name_of(fn)
    for what, ids, pair, new_id in CASES:
        want = reference(ids, pair, new_id)
        given = list(ids)
        head = say("case", ids=ids, pair=pair, new_id=new_id, what=say(what), want=want)
        try:
            got = fn(given, pair, new_id)
        except Exception as e:  # the reader's error, next to what was expected
            return not_yet(name, head, Message("got_error_in", {"error": error_text(e),
                                                                "where": where(e, source_file(fn))}))
        if got is None:
            return not_yet(name, head, say("none"))
        try:
            got = [int(i) for i in got]
        except (TypeError, ValueError):
            return not_yet(name, head, say("not_ids", got=repr(got)[:60]))
        if given != ids:
            return not_yet(name, head, say("changed", got=got, given=given))
        if got != want:
            wrong = [key for key, mistake in MISTAKES.items() if mistake(ids, pair, new_id) == got]
            return not_yet(name, head, Message("got_in", {"what": got}), say(wrong[0] if wrong else "compare"))
    return passed(name, say("passed", n=len(CASES)))


LESSON = Lesson("bpe", starts={"bpe.py": (
    "merge: one step of byte-pair encoding over a list of ids", "merge：在一串 id 上做一次字节对合并")},
    introduces=(("bpe.py", "merge"),),
    checks=(Check("merge", "structure", lambda wb: check_merge(wb.get("bpe.py", "merge"))),))
