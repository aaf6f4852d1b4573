"""Checks for the lesson ``kv-cache`` (``train/kv-cache``): the reader's ``cached_keys_values``.

``check_cached_keys_values(fn)`` calls ``fn(kv_cache, k, v, start)`` as ``MultiHeadAttention.forward`` does
during generation (a prompt of 3 tokens, then one token at a time) with keys and values whose every number
says which position, head and channel it belongs to; then it runs the numpy GPT's layers with ``fn`` storing their keys and values and compares
every position's logits with the forward pass without a cache. It returns a Result: ``"<name>: passed
..."``, or ``"<name>: not yet"`` with the first position that differs, what should be there and what is.
An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

import minigpt.gpt
from minigpt_course.checks import Check, Lesson, Message, Result, name_of, not_yet, passed, reader_errors, speaker
from minigpt.config import GPTConfig
from minigpt.tensor import Tensor, no_grad

MESSAGES = {
    "expected": ("{name}(kv_cache, k, v, start) -> the keys and values of positions 0 .. start+T-1",
                 "{name}(kv_cache, k, v, start) -> 位置 0 .. start+T-1 的键和值"),
    "call": ("  call with start={start}, T={T} new tokens:", "  调用时 start={start}，新来 T={T} 个词元："),
    "not_tuple": ("    expected a tuple of two Tensors (k, v), got {got}", "    期望     由两个 Tensor 组成的 tuple (k, v)，得到的是 {got}"),
    "shape": ("    {kind}: expected (B, nh, start+T, hs) = {want}, got {got}",
              "    {kind}：期望 (B, nh, start+T, hs) = {want}，得到 {got}"),
    "only_new": ("    only this call's new tokens: attention needs every stored position",
                 "    只有这次调用的新词元：注意力要用到所有已经存下的位置"),
    "whole_buffer": ("    the whole buffer, slots not yet written included: slice up to start+T",
                     "    整个缓冲区，连还没写过的槽位也算进去了：要切片到 start+T"),
    "slot": ("    {kind}[0, :, {p}]: expected {want}, got {got}", "    {kind}[0, :, {p}]：期望{want}，得到{got}"),
    "key": ("the key of position {p}", "位置 {p} 的键"),
    "value": ("the value of position {p}", "位置 {p} 的值"),
    "zeros": ("zeros (a slot nobody wrote)", "全是 0（没人写过的槽位）"),
    "no_position": ("numbers that are no position's key or value", "不是任何位置的键或值的数"),
    "in_place": ("    earlier calls' tokens must still be in the buffers: write into kv_cache's arrays in place, at "
                 "positions start .. start+T-1",
                 "    之前几次调用的词元必须还留在缓冲区里：原地写进 kv_cache 的数组，位置是 start .. start+T-1"),
    "inside": ("  inside the GPT (a prompt of 3, then 7 tokens one at a time): the logits of position {t} differ from the "
               "forward pass without a cache by {diff:.3g}",
               "  放进 GPT 里（先是 3 个词元的提示，再一次一个地生成 7 个）：位置 {t} 的 logits 和不用缓存的前向计算差了 {diff:.3g}"),
    "passed": ("{name}: passed ({calls} calls, every stored position where it belongs; inside the GPT, the logits of all "
               "10 positions as without a cache)",
               "{name}：通过（{calls} 次调用，存下的每个位置都在该在的地方；放进 GPT 里，全部 10 个位置的 logits 和不用缓存时一样）"),
}
say = speaker(__name__)

B, NH, BLOCK, HS = 2, 2, 8, 3
CALLS = ((0, 3), (3, 1), (4, 1))  # (start, T): the prompt, then one new token per call


def _labelled(start: int, T: int, sign: int) -> np.ndarray:
    """(B, nh, T, hs): the keys (sign 1) or values (sign -1) of positions start .. start+T-1, each number
    sign * (1000 + 100*b + 10*position + 4*h + c + 1), so that it names its sequence, position, head, channel."""
    b = np.arange(B)[:, None, None, None]
    h = np.arange(NH)[None, :, None, None]
    p = np.arange(start, start + T)[None, None, :, None]
    c = np.arange(HS)[None, None, None, :]
    return (sign * (1000 + 100 * b + 10 * p + 4 * h + c + 1)).astype(np.float32)


def _what(row: np.ndarray, b: int) -> Message:
    """What a (nh, hs) slice of sequence b holds: 'the key of position 2', 'zeros', ..."""
    if not row.any():
        return say("zeros")
    for sign, kind in ((1, "key"), (-1, "value")):
        for p in range(BLOCK):
            if np.array_equal(row, _labelled(p, 1, sign)[b, :, 0]):
                return say(kind, p=p)
    return say("no_position")


def _check_calls(fn, name) -> Result | None:
    k_buf = np.zeros((B, NH, BLOCK, HS), dtype=np.float32)
    v_buf = np.zeros((B, NH, BLOCK, HS), dtype=np.float32)
    for start, T in CALLS:
        call = say("call", start=start, T=T)
        out = fn((k_buf, v_buf), Tensor(_labelled(start, T, 1)), Tensor(_labelled(start, T, -1)), start)
        if not (isinstance(out, tuple) and len(out) == 2 and all(isinstance(t, Tensor) for t in out)):
            return not_yet(name, call, say("not_tuple", got=type(out).__name__))
        want = (B, NH, start + T, HS)
        for t, kind, sign in ((out[0], "keys", 1), (out[1], "values", -1)):
            got = tuple(t.shape)
            if got != want:
                why = {(B, NH, T, HS): [say("only_new")], (B, NH, BLOCK, HS): [say("whole_buffer")]}
                return not_yet(name, call, say("shape", kind=kind, want=want, got=got), *why.get(got, []))
            for p in range(start + T):
                expected = _labelled(p, 1, sign)[:, :, 0]  # (B, nh, hs)
                if not np.array_equal(t.data[:, :, p], expected):
                    lines = [say("slot", kind=kind, p=p, want=say(kind[:-1], p=p), got=_what(t.data[0, :, p], 0))]
                    if p < start:
                        lines.append(say("in_place"))
                    return not_yet(name, call, *lines)
    return None


def _attention(attn, x, kv_cache, start: int, fn) -> Tensor:
    """``minigpt.gpt.MultiHeadAttention.forward`` with a cache, its keys and values stored by ``fn``."""
    B, T, C = x.shape
    q, k, v = (minigpt.gpt.split_heads(proj(x), attn.n_head) for proj in (attn.c_q, attn.c_k, attn.c_v))
    k, v = fn(kv_cache, k, v, start)  # (B, nh, start+T, hs)
    att = (q @ k.transpose(-2, -1)) * (1.0 / np.sqrt(C // attn.n_head))  # (B, nh, T, start+T)
    if T > 1:  # the prompt, from position 0: the causal mask; one new token sees every stored one
        att = att.masked_fill(minigpt.gpt.causal_mask(T), -np.inf)
    return attn.c_proj(minigpt.gpt.merge_heads(att.softmax(dim=-1) @ v))  # (B, T, C)


def _cached_forward(model, idx: np.ndarray, cache, fn) -> np.ndarray:
    """``model(idx, kv_cache=cache)``'s logits (B, T, V), with ``fn`` as the cache's cached_keys_values."""
    start, T = cache.length, idx.shape[1]
    x = model.wte(idx) + model.wpe(np.arange(start, start + T))  # (B, T, C)
    for i, block in enumerate(model.blocks):
        x = x + _attention(block.attn, block.ln_1(x), (cache.k[i], cache.v[i]), start, fn)
        x = x + block.mlp(block.ln_2(x))  # (B, T, C)
    cache.length += T
    return (model.ln_f(x) @ model.wte.weight.T).data  # (B, T, V)


@reader_errors("expected")
def check_cached_keys_values(fn) -> Result:
    """``fn(kv_cache, k, v, start)`` must store k, v (B, nh, T, hs) at positions start .. start+T-1 of the
    buffers ``kv_cache = (k_buf, v_buf)``, each (B, nh, block_size, hs), and return every stored position's
    keys and values as Tensors, (B, nh, start+T, hs), as ``minigpt.gpt.cached_keys_values`` does."""
    name = name_of(fn)
    problem = _check_calls(fn, name)
    if problem:
        return problem
    model = minigpt.gpt.GPT(GPTConfig(vocab_size=69), seed=0)
    idx = np.array([[20, 46, 53, 58, 1, 39, 43, 52, 10, 0]])  # (1, 10)
    with no_grad():
        full = model(idx)[0].data  # (1, 10, V): no cache
        cache = model.new_kv_cache(1)
        rows = [_cached_forward(model, idx[:, :3], cache, fn)]  # the prompt, positions 0..2
        rows += [_cached_forward(model, idx[:, t : t + 1], cache, fn) for t in range(3, 10)]  # one at a time
    cached = np.concatenate(rows, axis=1)  # (1, 10, V)
    for t in range(10):
        diff = float(np.abs(cached[0, t] - full[0, t]).max())
        if not diff < 1e-5:
            return not_yet(name, say("inside", t=t, diff=diff))
    return passed(name, say("passed", calls=len(CALLS)))


def _cached_keys_values(wb):
    fn = wb.get("gpt.py", "cached_keys_values")
    ReaderTensor = wb.get("tensor.py", "Tensor")

    def cached_keys_values(kv_cache, k, v, start):  # the reader's function on the reader's Tensors
        out = fn(kv_cache, ReaderTensor(k.data), ReaderTensor(v.data), start)
        if isinstance(out, tuple) and len(out) == 2 and all(hasattr(t, "data") for t in out):
            return tuple(Tensor(np.asarray(t.data)) for t in out)  # back into the library's GPT
        return out

    return check_cached_keys_values(cached_keys_values)


LESSON = Lesson("kv-cache", introduces=(("gpt.py", "cached_keys_values"),), checks=(
    Check("cached_keys_values", "structure", _cached_keys_values),))
