"""Checks of the GPT the reader writes in their workbook's ``gpt.py`` (lessons multi-head, block and gpt), against the library's.

Each check builds the reader's class and the library's (``minigpt.gpt``) from the same small config, gives
both the same weights by name, runs both on the same input in the reader's own ``Tensor`` and returns a
``Result``: ``"<name>: passed ..."``, or ``"<name>: not yet"`` with what was expected, what came back and, when
the numbers match a known mistake (no residual, post-norm, no position embedding...), which one. An
exception raised by the reader's code is reported as what was expected next to the error and the line of
the reader's file it came from.

- ``check_attention_class(MultiHeadAttention, Tensor)``: multi-head, ``attn(x)`` for x (B, T, C).
- ``check_block_class`` (in ``checks.block``) uses ``check_layer`` the same way for the reader's Block.
- ``check_gpt_class(GPT, Tensor)``: gpt, ``model(idx, targets) -> (logits, loss)``.
- ``check_gpt_trains(GPT, AdamW)``: gpt, a few optimizer steps on one batch lower the loss.
"""

from __future__ import annotations

import numpy as np

import minigpt.gpt as library
from minigpt_course.checks import Check, Lesson, Message, Result, not_yet, passed, raised, show, source_file, speaker
from minigpt.config import GPTConfig
from minigpt.tensor import Tensor as LibraryTensor

CONFIG = GPTConfig(vocab_size=11, block_size=8, n_layer=2, n_head=4, n_embd=16)
B, T = 2, 6
RTOL = 1e-4  # float32 on both sides: a different but correct order of operations stays well inside this

MESSAGES = {
    "code": ("{code}", "{code}"),
    "build": ("{cls}({args}) to build", "{cls}({args}) 能建出来"),
    "pairs": ("(name, parameter) pairs from {what}", "{what} 给出的 (name, parameter) 对"),
    "names": ("  parameter names: expected the lesson's {n} names", "  参数名：应该是课上的 {n} 个名字"),
    "missing": ("  missing  {names}", "  缺少     {names}"),
    "extra": ("  extra    {names}", "  多出     {names}"),
    "tied": ("  the output head reuses wte.weight (tied): logits = x @ wte.weight.T, no lm_head",
             "  输出头复用 wte.weight（权重共享）：logits = x @ wte.weight.T，没有 lm_head"),
    "use_names": ("  use the lesson's names, so that the library's weights load into your model",
                  "  用课上的名字，库里的权重才能装进你的模型"),
    "param_shape": ("  {param}: expected shape {want}, got {got}", "  {param}：形状应该是 {want}，得到的是 {got}"),
    "not_array": ("  expected {expected}, got {got}", "  期望     {expected}，得到的是 {got}"),
    "a_tensor": ("a Tensor (B, T, C)", "一个 (B, T, C) 的 Tensor"),
    "logits_tensor": ("logits, a Tensor (B, T, V)", "logits，一个 (B, T, V) 的 Tensor"),
    "loss_tensor": ("loss, a Tensor holding one number", "loss，一个只装一个数的 Tensor"),
    "output": ("output (B, T, C) = {shape}", "输出 (B, T, C) = {shape}"),
    "logits": ("logits (B, T, V) = {shape}", "logits (B, T, V) = {shape}"),
    "shape": ("  {what}: expected shape {want}, got {got}", "  {what}：形状应该是 {want}，得到的是 {got}"),
    "largest": ("  {what}\n  at {row}, the largest difference ({diff:.3g}), first 6 numbers:\n    expected {want}\n"
                "    got      {got}",
                "  {what}\n  在 {row} 处差得最多（{diff:.3g}），前 6 个数：\n    期望     {want}\n    得到     {got}"),
    "no_mask": ("no causal mask: every token also sees the later ones", "没有因果掩码：每个词元也看得到后面的词元"),
    "no_position": ("no position embedding: x = wte(idx) alone, so every position looks the same to the blocks",
                    "没有位置嵌入：x 只有 wte(idx)，在各个块看来每个位置都一样"),
    "no_final_norm": ("no final LayerNorm: ln_f(x) comes before the output head",
                      "没有最后的 LayerNorm：输出头之前要先做 ln_f(x)"),
    "pair": ("  model(idx, targets): expected a pair (logits, loss), got {got}",
             "  model(idx, targets)：应该返回一对 (logits, loss)，得到的是 {got}"),
    "loss": ("  loss (mean cross-entropy of the logits against targets):\n    expected {want:.4f}\n    got      {got:.4f}",
             "  loss（logits 相对 targets 的平均交叉熵）：\n    期望     {want:.4f}\n    得到     {got:.4f}"),
    "summed_loss": ("  that is the sum over the B*T = {n} tokens: take the mean", "  这是 B*T = {n} 个词元的总和：要取平均"),
    "attention_passed": ("{name}: passed (output {shape} as the lesson's, to within {rtol:g})",
                         "{name}：通过（输出 {shape} 和课上的一致，相差在 {rtol:g} 以内）"),
    "block_passed": ("{name}: passed (block(x) {shape} as the lesson's, to within {rtol:g})",
                     "{name}：通过（block(x) {shape} 和课上的一致，相差在 {rtol:g} 以内）"),
    "gpt_passed": ("{name}: passed (logits {shape} and loss {loss:.4f} as the lesson's GPT, to within {rtol:g})",
                   "{name}：通过（logits {shape} 和损失 {loss:.4f} 都和课上的 GPT 一致，相差在 {rtol:g} 以内）"),
    "trains": ("{cls} trains", "{cls} 训练"),
    "dead": ("  after loss.backward(), these parameters have no gradient (None or all zeros): {names}{more}\n"
             "  build every step from Tensor ops, so that backward reaches them",
             "  loss.backward() 之后，这些参数没有梯度（None 或全是 0）：{names}{more}\n"
             "  每一步都用 Tensor 的运算搭出来，反向传播才能走到它们"),
    "steps": ("  {steps} AdamW steps (lr {lr}) on one batch:\n    expected the loss to fall below 2/3 of {first:.4f}\n"
              "    got      {last:.4f}",
              "  在同一批数据上走 {steps} 步 AdamW（lr {lr}）：\n    期望     损失降到 {first:.4f} 的 2/3 以下\n"
              "    得到     {last:.4f}"),
    "trains_passed": ("{name}: passed ({steps} AdamW steps on one batch: loss {first:.4f} -> {last:.4f})",
                      "{name}：通过（在同一批数据上走 {steps} 步 AdamW：损失 {first:.4f} -> {last:.4f}）"),
}
say = speaker(__name__)


class _Failed(Exception):
    """A result, ready: the reader's code did something the check cannot go on from."""


def _call(name, expected: Message, fn, *args, prefer: str | None = None):
    """``fn(*args)``; an exception of the reader's code becomes the report: ``expected``, the error and the
    line of ``prefer`` (the reader's file) it came from."""
    try:
        return fn(*args)
    except Exception as e:  # the reader's error, beside what was expected
        raise _Failed(raised(name, expected, e, prefer)) from None


def _code(code: str) -> Message:
    return say("code", code=code)


def _same_weights(name, theirs, ours, prefer: str | None, seed: int = 1) -> None:
    """Give the reader's module the library module's parameter names' weights (random, std 0.3)."""
    what = f"{type(theirs).__name__}.named_parameters()"
    mine = dict(_call(name, say("pairs", what=what), lambda: list(theirs.named_parameters()), prefer=prefer))
    lib = dict(ours.named_parameters())
    missing, extra = [n for n in lib if n not in mine], [n for n in mine if n not in lib]
    if missing or extra:
        def few(names):
            return str(names[:6])[:-1] + (f", ... {len(names) - 6} more]" if len(names) > 6 else "]")

        lines = [say("names", n=len(lib))]
        if missing:
            lines.append(say("missing", names=few(missing)))
        if extra:
            lines.append(say("extra", names=few(extra)))
            if "lm_head.weight" in extra:
                lines.append(say("tied"))
        lines.append(say("use_names"))
        raise _Failed(not_yet(name, *lines))
    rng = np.random.default_rng(seed)
    for n, p in lib.items():
        got = tuple(np.shape(mine[n].data))
        if got != tuple(p.shape):
            raise _Failed(not_yet(name, say("param_shape", param=n, want=tuple(p.shape), got=got)))
        w = rng.normal(0.0, 0.3, p.shape).astype(np.float32)
        p.data[...] = w
        mine[n].data[...] = w


def _array(name, out, expected: Message) -> np.ndarray:
    data = getattr(out, "data", out)
    try:
        return np.asarray(data, dtype=np.float64)
    except (TypeError, ValueError):
        raise _Failed(not_yet(name, say("not_array", expected=expected, got=type(out).__name__))) from None


def _compare(name, got: np.ndarray, want: np.ndarray, what: Message, mistakes: dict) -> Result | None:
    """None when ``got`` matches ``want``; else a result naming the largest difference and a known mistake
    (``mistakes``: the key of its message -> what it computes)."""
    if got.shape != want.shape:
        return not_yet(name, say("shape", what=what, want=want.shape, got=got.shape))
    scale = max(1.0, float(np.abs(want).max()))
    diff = float(np.abs(got - want).max())
    if diff <= RTOL * scale:
        return None
    row = tuple(int(i) for i in np.unravel_index(np.abs(got - want).argmax(), want.shape)[:-1])
    lines = [say("largest", what=what, row=list(row), diff=diff, want=show(want[row][:6], decimals=4),
                 got=show(got[row][:6], decimals=4))]
    for mistake, wrong in mistakes.items():
        wrong = np.asarray(wrong(), dtype=np.float64)
        if wrong.shape == got.shape and float(np.abs(got - wrong).max()) <= RTOL * scale:
            lines.append(Message("known_mistake", {"mistake": Message(mistake)}))
            break
    return not_yet(name, *lines)


def _input(Tensor, seed: int = 2):
    x = np.random.default_rng(seed).standard_normal((B, T, CONFIG.n_embd)).astype(np.float32)  # (B, T, C)
    return x, Tensor(x), LibraryTensor(x)


def _run(fn) -> Result:
    try:
        return fn()
    except _Failed as f:
        return f.args[0]


def check_layer(cls, Tensor, default: str, library_cls, call: str, mistakes, passed_key: str) -> Result:
    """``cls(config, rng)(x)`` against ``library_cls`` with the same weights, x (B, T, C); ``mistakes(ours, lib)``
    gives {message key: what that known mistake computes}, so a wrong output is named when it matches one."""
    name = getattr(cls, "__name__", default)
    prefer = source_file(cls)

    def run():
        ours = library_cls(CONFIG, np.random.default_rng(0))
        theirs = _call(name, say("build", cls=name, args="config, rng"), cls, CONFIG, np.random.default_rng(0),
                       prefer=prefer)
        _same_weights(name, theirs, ours, prefer)
        x, mine, lib = _input(Tensor)
        got = _array(name, _call(name, _code(call), theirs, mine, prefer=prefer), say("a_tensor"))
        want = ours(lib).data
        return _compare(name, got, want, say("output", shape=(B, T, CONFIG.n_embd)), mistakes(ours, lib)) or passed(
            name, say(passed_key, shape=got.shape, rtol=RTOL))

    return _run(run)


def check_attention_class(cls, Tensor) -> Result:
    """``cls(config, rng)(x)`` must equal ``minigpt.gpt.MultiHeadAttention`` with the same weights, x (B, T, C)."""
    def mistakes(ours, lib):
        def unmasked():  # the library's attention, step by step, without its causal mask
            hs = CONFIG.n_embd // CONFIG.n_head
            q, k, v = (library.split_heads(proj(lib), CONFIG.n_head) for proj in (ours.c_q, ours.c_k, ours.c_v))
            att = ((q @ k.transpose(-2, -1)) * (1.0 / np.sqrt(hs))).softmax(dim=-1)  # (B, nh, T, T)
            return ours.c_proj(library.merge_heads(att @ v)).data  # (B, T, C)
        return {"gpt.no_mask": unmasked}

    return check_layer(cls, Tensor, "MultiHeadAttention", library.MultiHeadAttention, "attn(x): (B, T, C)",
                        mistakes, "attention_passed")


def _batch() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    ids = rng.integers(0, CONFIG.vocab_size, size=(B, T + 1))
    return ids[:, :-1], ids[:, 1:]  # (B, T) each


def check_gpt_class(cls, Tensor) -> Result:
    """``cls(config, seed=0)(idx, targets)`` must give the logits (B, T, V) and mean cross-entropy of
    ``minigpt.gpt.GPT`` with the same weights."""
    name = getattr(cls, "__name__", "GPT")
    prefer = source_file(cls)

    def run():
        ours = library.GPT(CONFIG, seed=0)
        theirs = _call(name, say("build", cls=name, args="config"), cls, CONFIG, prefer=prefer)
        _same_weights(name, theirs, ours, prefer)
        idx, targets = _batch()
        out = _call(name, _code("model(idx, targets) -> (logits, loss)"), theirs, idx, targets, prefer=prefer)
        if not (isinstance(out, tuple) and len(out) == 2):
            return not_yet(name, say("pair", got=type(out).__name__))
        logits = _array(name, out[0], say("logits_tensor"))
        want, loss = ours(idx, targets)

        def forward(positions=True, final_norm=True):
            x = ours.wte(idx) + ours.wpe(np.arange(T)) if positions else ours.wte(idx)
            for block in ours.blocks:
                x = block(x)
            x = ours.ln_f(x) if final_norm else x
            return (x @ ours.wte.weight.T).data

        mistakes = {"gpt.no_position": lambda: forward(positions=False),
                    "gpt.no_final_norm": lambda: forward(final_norm=False)}
        report = _compare(name, logits, want.data, say("logits", shape=(B, T, CONFIG.vocab_size)), mistakes)
        if report:
            return report
        got_loss = float(_array(name, out[1], say("loss_tensor")).sum())
        want_loss = float(loss.data)
        if not np.isclose(got_loss, want_loss, rtol=RTOL):
            hint = [say("summed_loss", n=B * T)] if np.isclose(got_loss, want_loss * B * T, rtol=RTOL) else []
            return not_yet(name, say("loss", want=want_loss, got=got_loss), *hint)
        return passed(name, say("gpt_passed", shape=logits.shape, loss=want_loss, rtol=RTOL))

    return _run(run)


STEPS, LR = 20, 1e-2


def check_gpt_trains(cls, AdamW) -> Result:
    """``STEPS`` steps of ``AdamW(model.parameters(), lr=LR)`` on one batch must lower the loss by at least
    a third, and backward must reach every parameter."""
    cls_name = getattr(cls, "__name__", "GPT")
    name = say("trains", cls=cls_name)
    prefer = source_file(cls)

    def run():
        model = _call(name, say("build", cls=cls_name, args="config"), cls, CONFIG, prefer=prefer)
        idx, targets = _batch()
        params = _call(name, _code("model.parameters()"), lambda: list(model.parameters()), prefer=prefer)
        opt = _call(name, _code(f"{getattr(AdamW, '__name__', 'AdamW')}(model.parameters(), lr={LR}, weight_decay=0)"),
                    lambda: AdamW(params, lr=LR, weight_decay=0.0), prefer=source_file(AdamW))
        losses = []
        for step in range(STEPS):
            _, loss = _call(name, _code("model(idx, targets) -> (logits, loss)"), model, idx, targets, prefer=prefer)
            _call(name, _code("loss.backward()"), loss.backward, prefer=prefer)
            if step == 0:
                named = _call(name, _code("model.named_parameters()"), lambda: list(model.named_parameters()),
                              prefer=prefer)
                dead = [n for n, p in named if p.grad is None or not np.any(p.grad)]
                if dead:
                    return not_yet(name, say("dead", names=dead[:4], more=" ..." if len(dead) > 4 else ""))
            _call(name, _code("opt.step()"), opt.step, prefer=source_file(AdamW))
            _call(name, _code("opt.zero_grad()"), opt.zero_grad, prefer=source_file(AdamW))
            losses.append(float(np.asarray(loss.data).sum()))
        first, last = losses[0], losses[-1]
        if not last < first * 2 / 3:
            return not_yet(name, say("steps", steps=STEPS, lr=LR, first=first, last=last))
        return passed(name, say("trains_passed", steps=STEPS, first=first, last=last))

    return _run(run)


LESSON = Lesson("gpt", introduces=(("gpt.py", "GPT"),), checks=(
    Check("GPT", "structure", lambda wb: check_gpt_class(wb.get("gpt.py", "GPT"), wb.get("tensor.py", "Tensor"))),
    Check("GPT trains", "in-the-model",
          lambda wb: check_gpt_trains(wb.get("gpt.py", "GPT"), wb.get("optim.py", "AdamW")))))
