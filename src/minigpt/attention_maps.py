"""Attention weights out of a trained GPT, for the attention explorer (docs/*/attention-explorer.md).

    model, tokenizer, ckpt = load_model("runs/poems-cpu")
    att = attention_weights(model, ids)  # (n_layer, n_head, T, T): row t = where position t looks

The PyTorch GPT computes attention with ``F.scaled_dot_product_attention``, which never hands out its
weights. A forward hook on each layer's attention reads that layer's input and computes
softmax(q k^T / sqrt(hs) + causal mask) from the same ``c_q`` and ``c_k``: the model's own maths is left
as it is. ``attention_weights`` checks its work: the weights times the values, through ``c_proj``, must
give the output the layer really produced.

``export`` writes a few poems the model writes (``minigpt generate --strict``'s code path, seeded) and a
few real poems of the validation split into one JSON file: for each poem its tokens and, per layer and
head, the lower triangle of the weights in thousandths.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from minigpt import data
from minigpt.config import POEM_CORPORA
from minigpt.generate import corpus_of, encode_prompt, write
from minigpt.tokenizer import CharTokenizer

FORMAT = "minigpt-attention"
VERSION = 1
SCALE = 1000  # weights are stored as integers in thousandths
# The prompts of the poems the model writes: --poems N takes the first N.
PROMPTS = [("五言绝句", "月,江"), ("七言绝句", "春,风"), ("五言绝句", "山,雨"), ("七言绝句", "秋,雁"),
           ("五言绝句", "花"), ("七言绝句", "雪,梅")]
REAL_FORMS = ("五言绝句", "七言绝句")  # real poems: quatrains, so that the file stays small
OUTPUT_TOLERANCE = 1e-4  # |weights @ v through c_proj - the layer's output|, float32


class AttentionMismatch(RuntimeError):
    """The recomputed weights do not reproduce the layer's output."""


# --8<-- [start:weights]
def causal_weights(attn, x: torch.Tensor) -> torch.Tensor:
    """softmax(q k^T / sqrt(hs) + causal mask) of one attention module on its input x (B, T, C)."""
    B, T, C = x.shape
    nh = attn.n_head
    hs = C // nh
    q = attn.c_q(x).view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
    k = attn.c_k(x).view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
    att = (q @ k.transpose(-2, -1)) / math.sqrt(hs)  # (B, nh, T, hs) @ (B, nh, hs, T) -> (B, nh, T, T)
    future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(diagonal=1)  # (T, T)
    return att.masked_fill(future, float("-inf")).softmax(dim=-1)  # (B, nh, T, T)
# --8<-- [end:weights]


def _replay(attn, x: torch.Tensor, att: torch.Tensor) -> torch.Tensor:
    """The layer's output rebuilt from the weights: (att @ v), heads merged, through c_proj."""
    B, T, C = x.shape
    nh = attn.n_head
    v = attn.c_v(x).view(B, T, nh, C // nh).transpose(1, 2)  # (B, nh, T, hs)
    y = (att @ v).transpose(1, 2).reshape(B, T, C)  # (B, nh, T, hs) -> (B, T, C)
    return attn.c_proj(y)  # (B, T, C)


@torch.no_grad()
def attention_weights(model, ids, weights=causal_weights) -> np.ndarray:
    """(n_layer, n_head, T, T) float32 attention weights of ``model`` (a torch GPT, eval mode) on one
    sequence ``ids`` (T token ids): row t is what position t attends to (zero after t, summing to 1).
    Raises AttentionMismatch if the weights do not reproduce a layer's output (``weights`` is there
    so that the tests can hand in a wrong formula and see it caught)."""
    idx = torch.as_tensor([list(ids)], dtype=torch.long, device=model.wte.weight.device)  # (1, T)
    found, problems = [], []

    def record(module, args, output):
        x = args[0]
        att = weights(module, x)
        error = (_replay(module, x, att) - output).abs().max().item()
        if not error <= OUTPUT_TOLERANCE:
            problems.append(f"layer {len(found)}: {error:.2e}")
        found.append(att[0].float().cpu().numpy())

    hooks = [block.attn.register_forward_hook(record) for block in model.blocks]
    try:
        was_training = model.training
        model.eval()
        model(idx)
        model.train(was_training)
    finally:
        for hook in hooks:
            hook.remove()
    if problems:
        raise AttentionMismatch("the attention weights do not reproduce the layers' outputs "
                                f"(largest difference per layer: {', '.join(problems)})")
    return np.stack(found)  # (n_layer, n_head, T, T)


def lower_triangle(att: np.ndarray, scale: int = SCALE) -> list:
    """(L, H, T, T) weights -> nested lists [l][h][t] of the t + 1 weights of row t, as integers in 1/scale."""
    rounded = np.rint(att * scale).astype(np.int64)
    return [[[rounded[l, h, t, : t + 1].tolist() for t in range(att.shape[2])]
             for h in range(att.shape[1])] for l in range(att.shape[0])]


def token_names(tokenizer: CharTokenizer, ids) -> list[str]:
    """Each id as its character, special tokens as their names (``<bos>``, ``<sep>``, ``<eos>``)."""
    return [tokenizer.decode([i]) for i in ids]


def written_poems(model, tokenizer: CharTokenizer, ckpt: dict, n: int, seed: int) -> list[dict]:
    """The first ``n`` of PROMPTS, each written as ``minigpt generate --form F --keywords K --seed S --strict``."""
    out = []
    for form, keywords in PROMPTS[:n]:
        ids = encode_prompt(tokenizer, ckpt, None, form, keywords)
        [text] = write(model, tokenizer, ids, strict=True, form=form, keywords=keywords, seed=seed, stop_at_eos=True)
        out.append({"kind": "model", "form": form, "keywords": keywords.split(","), "text": text,
                    "ids": ids + tokenizer.encode(text) + [tokenizer.eos_id],
                    "command": f"minigpt generate --form {form} --keywords {keywords} --seed {seed} --strict"})
    return out


def real_poems(corpus, tokenizer: CharTokenizer, n: int, seed: int, titles: dict | None = None) -> list[dict]:
    """``n`` quatrains of ``corpus``'s validation split (chosen by ``seed``), as the model was shown them:
    ``<bos> form <sep> keywords <sep> poem <eos>``. ``titles``: poem text -> (title, author), if known."""
    val, vt = corpus.val.tolist(), corpus.tokenizer
    starts = [i for i, t in enumerate(val) if t == vt.bos_id]
    examples = []
    for a in starts:  # whole examples only: the split may start or end inside one
        if vt.eos_id in val[a:]:
            b = val.index(vt.eos_id, a) + 1
            form, keywords, text = vt.decode(val[a + 1 : b - 1]).split("<sep>")
            if form in REAL_FORMS:
                examples.append((form, keywords, text))
    if len(examples) < n:
        raise ValueError(f"the validation split has {len(examples)} whole quatrains, fewer than {n}")
    picked = sorted(np.random.default_rng(seed).choice(len(examples), size=n, replace=False).tolist())
    out = []
    for form, keywords, text in (examples[i] for i in picked):
        title, author = (titles or {}).get(text, (None, None))
        words = keywords.split(data.KEYWORD_SEP)
        ids = data.format_prompt(tokenizer, form, words) + tokenizer.encode(text) + [tokenizer.eos_id]
        out.append({"kind": "real", "form": form, "keywords": words, "text": text, "ids": ids,
                    "title": title, "author": author})
    return out


def model_facts(model, ckpt: dict, name: str) -> dict:
    """What the page says about the model that made the file."""
    c = model.config
    val = ckpt.get("val_loss")
    return {"name": name, "corpus": corpus_of(ckpt), "engine": ckpt.get("engine"), "n_layer": c.n_layer,
            "n_head": c.n_head, "n_embd": c.n_embd, "block_size": c.block_size, "params": model.num_params(),
            "step": ckpt.get("step"), "max_steps": ckpt.get("train_config", {}).get("max_steps"),
            "val_loss": None if val is None else round(float(val), 4)}


def export(model, tokenizer: CharTokenizer, ckpt: dict, corpus, n_written: int = 3, n_real: int = 3,
           seed: int = 0, name: str = "", titles: dict | None = None) -> dict:
    """The explorer's data: the model's facts and, per poem, its tokens and attention weights.

    ``attn[l][h][t]`` holds the t + 1 weights (in 1/SCALE) that position t gives positions 0..t in layer l,
    head h. Position t reads token t and writes token t + 1, so row t belongs to ``tokens[t + 1]``:
    the weights say which earlier tokens the model looked at to write it.
    """
    if corpus_of(ckpt) not in POEM_CORPORA:
        raise ValueError(f"the attention explorer needs a checkpoint trained on poems; this one was trained on "
                         f"{corpus_of(ckpt)}")
    poems = written_poems(model, tokenizer, ckpt, n_written, seed) + real_poems(corpus, tokenizer, n_real, seed,
                                                                                titles)
    for poem in poems:
        ids = poem.pop("ids")
        if len(ids) - 1 > model.config.block_size:
            raise ValueError(f"a poem of {len(ids)} tokens does not fit the context of {model.config.block_size}")
        poem["tokens"] = token_names(tokenizer, ids)
        poem["attn"] = lower_triangle(attention_weights(model, ids[:-1]))  # the last token is only written
    return {"format": FORMAT, "version": VERSION, "scale": SCALE,
            "model": model_facts(model, ckpt, name), "poems": poems}


def poem_titles() -> dict:
    """Poem text -> (title, author) for every cleaned Tang poem (the first of any duplicates)."""
    titles: dict = {}
    for p in data.load_poems():
        titles.setdefault(p.text, (p.title, p.author))
    return titles

