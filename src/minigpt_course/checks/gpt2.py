"""Checks for the lesson ``appendix/gpt2``: the reader's ``from_hf(name, tensor)``, which turns one tensor of a
Hugging Face GPT-2 checkpoint into our twin's tensors.

``check_from_hf(fn)`` calls ``fn`` on one tensor of each kind a GPT-2 file holds (c_attn's weight and bias, a
Conv1D weight that is square and one that is not, a LayerNorm gain behind the ``transformer.`` prefix, the token
embedding, a layer's causal mask) with small tensors whose entries are all different, and wants what
``minigpt.gpt2.from_hf`` returns: a dict from our names to tensors of our shapes and values. A wrong answer is
compared with the usual mistakes (no transpose, c_attn cut by rows or in the wrong order, the prefix or the mask
kept), and the report names the one it matches.
"""

from __future__ import annotations

import torch

from minigpt.gpt2 import from_hf
from minigpt_course.checks import Check, Lesson, Result, name_of, not_yet, passed, reader_errors, speaker

MESSAGES = {
    "expected": ("{name}(name, tensor) to return {{our name: tensor}} for one tensor of a GPT-2 checkpoint",
                 "{name}(name, tensor) 对 GPT-2 检查点里的一个张量返回 {{我们的名字: 张量}}"),
    "case": ("  {name}({hf!r}, tensor of shape {shape}) ({what})", "  {name}({hf!r}, 形状为 {shape} 的张量)（{what}）"),
    "c_attn_weight": ("c_attn's weight: q, k, v of all heads", "c_attn 的权重：所有头的 q、k、v"),
    "c_attn_bias": ("c_attn's bias", "c_attn 的偏置"),
    "c_fc": ("a Conv1D weight, (in, out)", "Conv1D 的权重，(in, out)"),
    "c_proj": ("a square Conv1D weight", "方阵形状的 Conv1D 权重"),
    "prefix": ("a LayerNorm gain behind the transformer. prefix", "带 transformer. 前缀的 LayerNorm 增益"),
    "wte": ("the token embedding", "词元嵌入"),
    "mask": ("a layer's causal mask, a buffer", "一层的因果掩码，是缓冲区"),
    "none": ("    got      None: return a dict (an empty one for what is not a weight)",
             "    得到     None：要返回一个字典（不是权重的张量返回空字典）"),
    "not_dict": ("    got      {got}, which is not a dict from names to tensors",
                 "    得到     {got}，这不是从名字到张量的字典"),
    "names": ("    expected the names {want}\n    got the names      {got}", "    期望的名字 {want}\n    得到的名字 {got}"),
    "shape": ("    {param}: expected shape {want}, got {got}", "    {param}：形状应该是 {want}，得到的是 {got}"),
    "values": ("    {param}: the shape is right, the values are not", "    {param}：形状对了，数值不对"),
    # what a wrong answer usually means
    "mask_kept": ("  h.N.attn.bias is each layer's causal mask, not a weight: our attention makes its own mask; "
                  "return {{}}",
                  "  h.N.attn.bias 是每层的因果掩码，不是权重：我们的注意力自己生成掩码，返回 {{}}"),
    "prefix_kept": ("  the name still holds transformer.: strip that prefix first (name.removeprefix(\"transformer.\"))",
                    "  名字里还留着 transformer.：先去掉这个前缀（name.removeprefix(\"transformer.\")）"),
    "not_split": ("  c_attn holds q, k and v in one matrix; our twin has c_q, c_k and c_v: split it in three",
                  "  c_attn 把 q、k、v 放在一个矩阵里，我们的孪生模型分成 c_q、c_k、c_v：要拆成三份"),
    "not_transposed": ("  these are the file's numbers as stored, not transposed: Conv1D stores W as (in, out) and computes x @ W, "
                       "nn.Linear stores (out, in) and computes x @ W.T: transpose with .t()",
                       "  这是文件里原样存的数，没有转置：Conv1D 按 (in, out) 存 W，算 x @ W；nn.Linear 按 (out, in) 存，"
                       "算 x @ W.T：用 .t() 转置"),
    "split_rows": ("  c_attn is (C, 3C): q, k and v are its columns, so cut after the transpose (or along dim=1), "
                   "not its rows",
                   "  c_attn 的形状是 (C, 3C)：q、k、v 是按列排的，要先转置再切（或者沿 dim=1 切），不能按行切"),
    "order": ("  the three parts are in the wrong order: c_attn's columns are q, then k, then v",
              "  三部分的顺序不对：c_attn 的列依次是 q、k、v"),
    "compare": ("  compare with the names and shapes of our twin's state_dict()",
                "  对照我们孪生模型 state_dict() 里的名字和形状"),
    "passed": ("{name}: passed (all {n} kinds of tensor: c_attn split in q, k, v, Conv1D weights transposed, the "
               "prefix stripped, the causal mask left out)",
               "{name}：通过（{n} 类张量都对：c_attn 拆成 q、k、v，Conv1D 权重转置，前缀去掉，因果掩码跳过）"),
}
say = speaker(__name__)

C = 6  # width of the small tensors: c_attn is (6, 18)
CASES = (  # (what it tests, the Hugging Face name, shape)
    ("c_attn_weight", "h.0.attn.c_attn.weight", (C, 3 * C)),
    ("c_attn_bias", "h.0.attn.c_attn.bias", (3 * C,)),
    ("c_fc", "h.1.mlp.c_fc.weight", (C, 4 * C)),
    ("c_proj", "h.1.attn.c_proj.weight", (C, C)),
    ("prefix", "transformer.h.0.ln_1.weight", (C,)),
    ("wte", "transformer.wte.weight", (10, C)),
    ("mask", "h.0.attn.bias", (1, 1, 8, 8)),
)


def _diagnosis(what: str, tensor: torch.Tensor, want: dict, got: dict):
    """The message of the usual mistake that ``got`` matches, else None."""
    if what == "mask" and got:
        return say("mask_kept")
    if any("transformer." in k for k in got):
        return say("prefix_kept")
    if what.startswith("c_attn") and any("c_attn" in k for k in got):
        return say("not_split")
    if set(got) != set(want):
        return None
    if any(g.dim() == 2 and g.shape == w.t().shape and torch.equal(g, w.t()) and not torch.equal(g, w)
           for g, w in ((got[k], want[k]) for k in want)):
        return say("not_transposed")
    if what == "c_attn_weight" and all(g.dim() == 2 and 3 * g.shape[0] == tensor.shape[0] for g in got.values()):
        return say("split_rows")
    if what.startswith("c_attn") and sorted(map(_key, got.values())) == sorted(map(_key, want.values())):
        return say("order")
    return None


def _key(t: torch.Tensor) -> tuple:
    return tuple(t.reshape(-1).tolist())


@reader_errors("expected")
def check_from_hf(fn) -> Result:
    """``fn(name, tensor)`` must return ``minigpt.gpt2.from_hf(name, tensor)``: our names, shapes and values."""
    name = name_of(fn)
    for what, hf, shape in CASES:
        tensor = torch.arange(1, 1 + torch.Size(shape).numel(), dtype=torch.float32).reshape(shape)  # all different
        want = {k: v.contiguous() for k, v in from_hf(hf, tensor.clone()).items()}
        head = say("case", name=name, hf=hf, shape=shape, what=say(what))
        got = fn(hf, tensor.clone())
        if got is None:
            return not_yet(name, head, say("none"))
        if not isinstance(got, dict) or not all(isinstance(k, str) for k in got):
            return not_yet(name, head, say("not_dict", got=repr(got)[:60]))
        try:
            got = {k: torch.as_tensor(v) for k, v in got.items()}
        except (TypeError, ValueError, RuntimeError):
            return not_yet(name, head, say("not_dict", got=repr(got)[:60]))
        hint = _diagnosis(what, tensor, want, got)
        if set(got) != set(want):
            return not_yet(name, head, say("names", want=list(want), got=list(got)), hint or say("compare"))
        for key in want:
            if tuple(got[key].shape) != tuple(want[key].shape):
                return not_yet(name, head, say("shape", param=key, want=tuple(want[key].shape),
                                               got=tuple(got[key].shape)), hint or say("compare"))
            if not torch.equal(got[key].to(want[key].dtype), want[key]):
                return not_yet(name, head, say("values", param=key), hint or say("compare"))
    return passed(name, say("passed", n=len(CASES)))


LESSON = Lesson("gpt2", starts={"gpt2.py": (
    "from_hf: one tensor of a Hugging Face GPT-2 checkpoint as our twin's",
    "from_hf：把 Hugging Face GPT-2 检查点里的一个张量变成孪生模型的张量")},
    introduces=(("gpt2.py", "from_hf"),),
    checks=(Check("from_hf", "structure", lambda wb: check_from_hf(wb.get("gpt2.py", "from_hf"))),))
