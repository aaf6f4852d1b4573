"""``minigpt workbook train``: the reader's own GPT, from their workbook, trained on a corpus and sampled.

Everything that learns is the reader's: ``gpt.GPT`` on their ``Tensor`` and ``nn.py``, stepped by their
``optim.AdamW``, fed by their ``data.get_batch`` and, once the loop lesson wrote it, scheduled by their
``train.lr_at``. The library only reads the corpus and its tokenizer (``minigpt.data``) and prints.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import numpy as np

from minigpt import data
from minigpt_course import workbook
from minigpt_course.checks import Message
from minigpt.config import GPTConfig, TrainConfig

TEXT = {
    "en": {
        "need": "{file} has no {piece} yet: lesson {lesson} adds it; minigpt workbook train needs it",
        "start": "training your GPT ({pieces}) on {corpus}: {n_layer} layers, {n_head} heads, {n_embd} wide, "
                 "context {block_size}, {params:,} weights",
        "step": "step {step:>4}: loss {loss:.4f}",
        "done": "{steps} steps in {seconds:.1f} s: loss {first:.4f} -> {last:.4f}",
        "sample": "your GPT writes ({prompt}):",
        "diverged": "the loss is {loss} at step {step}: training diverged; check your backward and AdamW",
    },
    "zh": {
        "need": "{file} 里还没有 {piece}：第 {lesson} 课会写它；minigpt workbook train 要用到它",
        "start": "训练你的 GPT（{pieces}），语料 {corpus}：{n_layer} 层，{n_head} 个头，宽 {n_embd}，"
                 "上下文 {block_size}，共 {params:,} 个权重",
        "step": "第 {step:>4} 步：损失 {loss:.4f}",
        "done": "{steps} 步，用时 {seconds:.1f} 秒：损失 {first:.4f} -> {last:.4f}",
        "sample": "你的 GPT 写出（{prompt}）：",
        "diverged": "第 {step} 步损失为 {loss}：训练发散了；检查你的反向传播和 AdamW",
    },
}


class NotReady(Exception):
    """A piece the training needs is not in the workbook (or does not import): the message says which."""


def _pieces(folder: Path, lang: str) -> dict:
    """The reader's GPT, AdamW, Tensor module and, when written, get_batch and lr_at."""
    modules, problems = workbook._load(folder)
    for name, e in problems:
        if name in ("gpt.py", "optim.py", "tensor.py", "nn.py", "functional.py"):
            raise NotReady(Message("import", {"file": name, "where": workbook._where(e, folder),
                                              "error": workbook._error(e)}).render(lang))
    found = {}
    for key, file, piece, lesson, required in (("GPT", "gpt.py", "GPT", "gpt", True),
                                               ("AdamW", "optim.py", "AdamW", "layers-optim", True),
                                               ("get_batch", "data.py", "get_batch", "text-to-tokens", False),
                                               ("lr_at", "train.py", "lr_at", "loop", False)):
        module = modules.get(file)
        value = getattr(module, piece, None) if module is not None else None
        if value is None and required:
            raise NotReady(TEXT[lang]["need"].format(file=file, piece=piece, lesson=workbook.lesson_name(lesson)))
        found[key] = value
    found["no_grad"] = getattr(modules.get("tensor.py"), "no_grad", contextlib.nullcontext)
    return found


def _sample(model, no_grad, prompt: list[int], block_size: int, eos: int, n: int, rng) -> list[int]:
    """Up to ``n`` new tokens from the reader's model, one at a time, softmax(logits / 0.8), until <eos>."""
    ids = list(prompt)
    with no_grad():
        for _ in range(n):
            logits, _ = model(np.array([ids[-block_size:]]))  # (1, T, V)
            last = np.asarray(logits.data, dtype=np.float64)[0, -1] / 0.8  # (V,)
            p = np.exp(last - last.max())
            token = int(rng.choice(len(p), p=p / p.sum()))
            if token == eos:
                break
            ids.append(token)
    return ids[len(prompt):]


def train(folder: Path, lang: str, corpus: str = "poems", steps: int = 200, seed: int = 1337,
          batch_size: int = 16, block_size: int = 32, n_layer: int = 2, n_head: int = 4, n_embd: int = 64,
          lr: float = 3e-3, sample_tokens: int = 60, log_every: int = 50, out=print) -> list[float]:
    """Train the reader's GPT for ``steps`` steps, print the loss and a sample; returns the losses."""
    t = TEXT[lang]
    c = data.poem_corpus() if corpus == "poems" else data.shakespeare_corpus()
    with workbook._Isolated(folder):
        try:
            return _train(folder, lang, t, c, corpus, steps, seed, batch_size, block_size, n_layer, n_head, n_embd,
                          lr, sample_tokens, log_every, out)
        except NotReady:
            raise
        except Exception as e:  # the reader's code raised: their file and line, never a traceback
            raise NotReady(Message("raised", {"where": workbook._where(e, folder),
                                              "error": workbook._error(e)}).render(lang)) from None


def _train(folder, lang, t, c, corpus, steps, seed, batch_size, block_size, n_layer, n_head, n_embd, lr,
           sample_tokens, log_every, out) -> list[float]:
    tok = c.tokenizer
    p = _pieces(folder, lang)
    config = GPTConfig(vocab_size=tok.vocab_size, block_size=block_size, n_layer=n_layer, n_head=n_head,
                       n_embd=n_embd)
    model = p["GPT"](config, seed=seed)
    params = list(model.parameters())
    opt = p["AdamW"](params, lr=lr, weight_decay=0.0)
    schedule = TrainConfig(max_steps=steps, lr=lr, min_lr=lr / 10, warmup_steps=max(1, steps // 10),
                           block_size=block_size, n_layer=n_layer, n_head=n_head, n_embd=n_embd, engine="numpy")
    names = ["gpt.py GPT", "optim.py AdamW"] + [n for n, k in (("data.py get_batch", "get_batch"),
                                                               ("train.py lr_at", "lr_at")) if p[k]]
    out(t["start"].format(pieces=", ".join(names), corpus=corpus, n_layer=n_layer, n_head=n_head, n_embd=n_embd,
                          block_size=block_size, params=sum(int(np.size(q.data)) for q in params)))
    rng = np.random.default_rng(seed)
    losses, since = [], time.perf_counter()
    for step in range(steps):
        if p["lr_at"] is not None:
            opt.lr = p["lr_at"](step, schedule)
        if p["get_batch"] is not None:
            x, y = p["get_batch"](c.train, batch_size, block_size, rng)
        else:
            x, y = c.get_batch("train", batch_size, block_size, rng)
        _, loss = model(np.asarray(x), np.asarray(y))
        loss.backward()
        opt.step()
        opt.zero_grad()
        losses.append(float(np.asarray(loss.data).sum()))
        if not np.isfinite(losses[-1]):
            out(t["diverged"].format(loss=losses[-1], step=step))
            return losses
        if step % log_every == 0 or step == steps - 1:
            out(t["step"].format(step=step, loss=losses[-1]))
    out(t["done"].format(steps=steps, seconds=time.perf_counter() - since, first=losses[0], last=losses[-1]))
    if corpus == "poems":
        prompt, shown = data.format_prompt(tok, "五绝", ["月"]), "五绝, 月"
    else:
        prompt, shown = tok.encode("ROMEO:"), "ROMEO:"
    if hasattr(model, "eval"):  # no dropout while sampling
        model.eval()
    ids = _sample(model, p["no_grad"], prompt, block_size, tok.eos_id, sample_tokens, np.random.default_rng(seed))
    out(t["sample"].format(prompt=shown))
    out(tok.decode(ids, skip_special=True))
    return losses
