"""Checks for the exercises of the lesson ``lm/text-to-tokens``.

``check_get_batch(fn)`` calls a reader's ``fn(data, batch_size, block_size, rng)`` on a stream whose ids
say where they stand (id = 100 + position), so a wrong window is reported by the positions it holds:
"x[1] holds positions 7..14" rather than a list of ids. An error raised by the reader's code is reported as
expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt_course.checks import Check, Lesson, Message, Result, error_text, not_yet, passed, reader_errors, speaker

N, B, T, DRAWS = 40, 4, 8, 200
OFFSET = 100  # data[i] = OFFSET + i


MESSAGES = {
    "expected_batch": ("{name}(data, batch_size, block_size, rng) -> (x, y), each (B, T), y one position after x",
                       "{name}(data, batch_size, block_size, rng) -> (x, y)，形状都是 (B, T)，y 比 x 晚一个位置"),
    "expected_tokenizer": ("{name}(chars) with encode(text) -> ids and decode(ids) -> text",
                           "{name}(chars) 建出分词器，带 encode(text) -> ids 和 decode(ids) -> text"),
    "positions": ("positions {first}..{last}", "位置 {first}..{last}"),
    "ids": ("ids {ids}", "id {ids}"),
    "pair": ("  expected a pair (x, y), got {got}", "  期望     一对 (x, y)，得到的是 {got}"),
    "data": ("  data has N = {N} tokens, batch_size B = {B}, block_size T = {T}",
             "  data 有 N = {N} 个词元，batch_size B = {B}，block_size T = {T}"),
    "array": ("  {label}: expected an integer array of shape (B, T) = ({B}, {T}), got {got}",
              "  {label}：应该是形状为 (B, T) = ({B}, {T}) 的整数数组，得到的是 {got}"),
    "shape_dtype": ("shape {shape}, dtype {dtype}", "形状 {shape}，dtype {dtype}"),
    "consecutive": ("  x[{b}] should be T = {T} consecutive tokens of data, got {got}",
                    "  x[{b}] 应该是 data 里连续的 T = {T} 个词元，得到的是 {got}"),
    "x_holds": ("  x[{b}] holds {x}", "  x[{b}] 取的是 {x}"),
    "y": ("  y[{b}]: expected positions {first}..{last}, got {got}", "  y[{b}]：期望     位置 {first}..{last}，得到 {got}"),
    "y_is_x": ("  y[{b}]: expected positions {first}..{last}, got {got} = x itself: a target is the NEXT token, "
               "so y is x shifted left by one",
               "  y[{b}]：期望     位置 {first}..{last}，得到 {got} = x 本身：目标是下一个词元，所以 y 是 x 左移一位"),
    "starts": ("  in {draws} batches, no window started at position {missing} (starts go from 0 to N - T - 1 = {last}; "
               "numpy's integers(low, high) leaves out high)",
               "  {draws} 批里没有一个窗口从位置 {missing} 开始（起点是 0 到 N - T - 1 = {last}；"
               "numpy 的 integers(low, high) 取不到 high）"),
    "passed_batch": ("{name}: passed (x, y of shape ({B}, {T}), y one position after x, all {n} window starts drawn "
                     "in {draws} batches)",
                     "{name}：通过（x、y 的形状是 ({B}, {T})，y 比 x 晚一个位置，{draws} 批里抽到了全部 {n} 个窗口起点）"),
    "call_failed": ("  expected {what}\n  got {error}", "  期望     {what}\n  得到 {error}"),
    "build_hello": ('{name}("hello") to build a tokenizer of the characters e, h, l, o',
                    '{name}("hello") 建出字符 e、h、l、o 的分词器'),
    "encode": ("encode('hole') = {want}", "encode('hole') = {want}"),
    "decode": ("decode([1, 5, 7, 6, 4, 2]) = '<bos>hole<eos>'", "decode([1, 5, 7, 6, 4, 2]) = '<bos>hole<eos>'"),
    "build": ("{name}({text}) to build a tokenizer", "{name}({text}) 建出分词器"),
    "round_trip": ("decode(encode(text)) to give text back", "decode(encode(text)) 还原出 text"),
    "hello": ("  {name}('hello'): ids 0..3 are <pad> <bos> <eos> <sep>, then e h l o in sorted order\n"
              "  encode('hole'): expected {want}, got {got}",
              "  {name}('hello')：id 0..3 是 <pad> <bos> <eos> <sep>，接着是排好序的 e h l o\n"
              "  encode('hole')：期望 {want}，得到 {got}"),
    "from_zero": ("  the characters start at id 0: ids 0..3 belong to the special tokens, characters start at 4",
                  "  字符从 id 0 开始了：id 0..3 归特殊词元，字符从 4 开始"),
    "unsorted": ("  the ids follow the order characters first appear: sort them, so one set of characters always gets "
                 "the same ids",
                 "  id 是按字符第一次出现的顺序给的：要先排序，同一组字符才总能拿到同样的 id"),
    "decoded": ("  decode([1, 5, 7, 6, 4, 2]): expected '<bos>hole<eos>', got {got}",
                "  decode([1, 5, 7, 6, 4, 2])：期望 '<bos>hole<eos>'，得到 {got}"),
    "back": ("  decode(encode({text})): expected the same text back, got {got}",
             "  decode(encode({text}))：应该还原出同样的文本，得到的是 {got}"),
    "passed_tokenizer": ("{name}: passed (specials at ids 0..3, characters sorted from 4, decode(encode(text)) == text)",
                         "{name}：通过（特殊词元占 id 0..3，字符排好序从 4 开始，decode(encode(text)) == text）"),
}
say = speaker(__name__)


def _positions(row: np.ndarray) -> Message:
    p = np.asarray(row).astype(np.int64) - OFFSET
    if p.size and (np.diff(p) == 1).all():
        return say("positions", first=p[0], last=p[-1])
    return say("ids", ids=np.asarray(row).tolist())


@reader_errors("expected_batch")
def check_get_batch(fn) -> Result:
    """Check ``fn(data, batch_size, block_size, rng) -> (x, y)``: shapes (B, T), windows of consecutive
    tokens, y one position after x, every window start from 0 to N - T - 1 reachable."""
    name = getattr(fn, "__name__", "get_batch")
    data = OFFSET + np.arange(N)  # (N,)
    starts = set()
    rng = np.random.default_rng(0)
    for _ in range(DRAWS):
        out = fn(data, B, T, rng)
        if not isinstance(out, tuple) or len(out) != 2:
            return not_yet(name, say("pair", got=type(out).__name__))
        x, y = out
        for label, a in (("x", x), ("y", y)):
            if not isinstance(a, np.ndarray) or a.shape != (B, T) or not np.issubdtype(a.dtype, np.integer):
                what = say("shape_dtype", shape=a.shape, dtype=a.dtype) if isinstance(a, np.ndarray) else repr(a)[:40]
                return not_yet(name, say("data", N=N, B=B, T=T), say("array", label=label, B=B, T=T, got=what))
        for b in range(B):
            p = x[b] - OFFSET
            if not (np.diff(p) == 1).all():
                return not_yet(name, say("consecutive", b=b, T=T, got=_positions(x[b])))
            want = data[p[0] + 1 : p[0] + 1 + T]
            if not np.array_equal(y[b], want):
                key = "y_is_x" if np.array_equal(y[b], x[b]) else "y"
                return not_yet(name, say("x_holds", b=b, x=_positions(x[b])),
                               say(key, b=b, first=p[0] + 1, last=p[0] + T, got=_positions(y[b])))
            starts.add(int(p[0]))
    missing = sorted(set(range(N - T)) - starts)
    if missing:
        return not_yet(name, say("starts", draws=DRAWS, missing=missing[-1], last=N - T - 1))
    return passed(name, say("passed_batch", B=B, T=T, n=N - T, draws=DRAWS))


class _Failed(Exception):
    """The reader's code raised: the result says what was expected and the error."""


@reader_errors("expected_tokenizer")
def check_tokenizer(cls) -> Result:
    """Check a reader's ``cls(chars)`` with ``encode(text) -> ids`` and ``decode(ids) -> text``, as
    ``minigpt.tokenizer.CharTokenizer``: ids 0..3 the special tokens <pad> <bos> <eos> <sep>, the characters
    after them in sorted order, and decode(encode(text)) == text."""
    name = getattr(cls, "__name__", "CharTokenizer")

    def call(what: Message, fn, *args):
        try:
            return fn(*args)
        except Exception as e:  # the reader's error, beside what was expected
            raise _Failed(not_yet(name, say("call_failed", what=what, error=error_text(e)))) from None

    try:
        tok = call(say("build_hello"), cls, "hello")
        want = [5, 7, 6, 4]
        ids = call(say("encode", want=want), tok.encode, "hole")
        ids = [int(i) for i in ids] if isinstance(ids, (list, tuple, np.ndarray)) else ids
        if ids != want:
            hint = []
            if ids == [i - 4 for i in want]:
                hint = [say("from_zero")]
            elif isinstance(ids, list) and sorted(ids) == sorted(want):
                hint = [say("unsorted")]
            return not_yet(name, say("hello", want=want, got=ids), *hint)
        text = call(say("decode"), tok.decode, [1, 5, 7, 6, 4, 2])
        if text != "<bos>hole<eos>":
            return not_yet(name, say("decoded", got=repr(text)))
        poem = "床前明月光，疑是地上霜。"
        tok = call(say("build", text=repr(poem)), cls, poem)
        back = call(say("round_trip"), lambda: tok.decode(tok.encode(poem)))
        if back != poem:
            return not_yet(name, say("back", text=repr(poem), got=repr(back)))
    except _Failed as f:
        return f.args[0]
    return passed(name, say("passed_tokenizer"))


LESSON = Lesson("text-to-tokens", starts={"data.py": (
    "CharTokenizer (text to ids and back) and get_batch", "CharTokenizer（文本和 id 互转）和 get_batch")},
    introduces=(("data.py", "CharTokenizer"), ("data.py", "get_batch")),
    checks=(Check("CharTokenizer", "structure", lambda wb: check_tokenizer(wb.get("data.py", "CharTokenizer"))),
            Check("get_batch", "batches", lambda wb: check_get_batch(wb.get("data.py", "get_batch")))))
