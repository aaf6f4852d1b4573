"""Checks for the exercises of the lesson ``train/torch-twin``.

``check_move_weights(fn)`` calls a reader's ``fn(numpy_gpt, torch_gpt)``, which must copy every parameter of
a ``minigpt.gpt.GPT`` into the ``minigpt.gpt_torch.GPT`` of the same config, in place, and returns one report:
``"<name>: passed ..."``, or ``"<name>: not yet"`` and the first parameter that differs, expected vs got.
An error raised by the reader's code is reported as expected vs got (``reader_errors``).
"""

from __future__ import annotations

import numpy as np

from minigpt import gpt, gpt_torch
from minigpt_course.checks import Check, Lesson, Result, name_of, not_yet, passed, reader_errors, speaker
from minigpt.config import GPTConfig


MESSAGES = {
    "expected": ("{name}(numpy_gpt, torch_gpt) to copy every weight of the numpy GPT into the torch GPT",
                 "{name}(numpy_gpt, torch_gpt) 把 numpy GPT 的每个权重都复制进 torch GPT"),
    "kind": ("  {param}: expected a float32 torch Parameter that requires grad, got {type} {dtype}, "
             "requires_grad={requires_grad}",
             "  {param}：应该是 requires_grad 为 True 的 float32 torch Parameter，得到的是 {type} {dtype}，"
             "requires_grad={requires_grad}"),
    "shape": ("  {param}: expected shape {want}, got {got}", "  {param}：形状应该是 {want}，得到的是 {got}"),
    "values": ("  {param} {shape}: expected the numpy GPT's values, max |numpy - torch| = {diff:.4f}",
               "  {param} {shape}：应该是 numpy GPT 里的值，max |numpy - torch| = {diff:.4f}"),
    "passed": ("{name}: passed (all {n} parameters copied; logits agree within 1e-5: {agree})",
               "{name}：通过（{n} 个参数全部复制过去；logits 在 1e-5 以内一致：{agree}）"),
}
say = speaker(__name__)


@reader_errors("expected")
def check_move_weights(fn) -> Result:
    """Not yet: the first parameter that differs; passed: the two models' logits compared."""
    import torch

    name = name_of(fn)
    config = GPTConfig(vocab_size=69)
    numpy_gpt, torch_gpt = gpt.GPT(config, seed=1), gpt_torch.GPT(config, seed=2)  # different weights
    fn(numpy_gpt, torch_gpt)
    theirs = dict(torch_gpt.named_parameters())
    for pname, p in numpy_gpt.named_parameters():
        t = theirs[pname]
        if not (isinstance(t, torch.nn.Parameter) and t.requires_grad and t.dtype == torch.float32):
            return not_yet(name, say("kind", param=pname, type=type(t).__name__, dtype=t.dtype,
                                     requires_grad=t.requires_grad))
        got = t.detach().numpy()
        if got.shape != p.shape:
            return not_yet(name, say("shape", param=pname, want=p.shape, got=got.shape))
        if not np.array_equal(got, p.data):
            return not_yet(name, say("values", param=pname, shape=p.shape, diff=np.abs(got - p.data).max()))
    idx = np.random.default_rng(0).integers(0, config.vocab_size, size=(2, 16))  # (B, T)
    with torch.no_grad():
        diff = np.abs(numpy_gpt(idx)[0].data - torch_gpt(idx)[0].numpy()).max()
    return passed(name, say("passed", n=len(theirs), agree=diff < 1e-5))


LESSON = Lesson("torch-twin", introduces=(("gpt.py", "move_weights"),), checks=(
    Check("move_weights", "weights-across", lambda wb: check_move_weights(wb.get("gpt.py", "move_weights"))),))
