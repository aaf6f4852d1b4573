"""minigpt beside nanoGPT on this machine: validation loss, wall time and peak memory, measured side by side.

nanoGPT is not vendored. ``RefGPT`` and ``ref_worker`` are a nanoGPT-shaped reference written for this benchmark:
its model (q, k and v from one matmul, no biases, exact GELU, output head tied to the token embedding, its
initialisation), its loop (batches from ``torch.randint`` on the global generator, AdamW on torch's default CPU
path with decay on matrices only, warmup then cosine, clip 1.0, 20 random batches of each split every 250 steps)
and the laptop configuration of its README for shakespeare_char. It stops at the evaluation of step 2000, where
nanoGPT prints its result (nanoGPT goes on to take one more step before leaving the loop).

Each run is a fresh process, so its wall time includes Python's start-up and imports and its peak RSS is its own.
After training, every model is scored on the same tokens: the whole validation split cut into windows of 64
(1,742 windows), so the losses compare without the noise of 20 random batches. That scoring is not timed.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F

from training import NANOGPT_RSS_MIB, NANOGPT_VAL_LOSS, NANOGPT_WALL_S, peak_rss_mib  # benchmarks/training.py

# nanoGPT's own train.py, its README's laptop command, run on a 2-core Intel Xeon (AVX-512, no AMX) on 2026-12-04
NANOGPT_MEASURED = f"val {NANOGPT_VAL_LOSS}, {NANOGPT_WALL_S} s, {NANOGPT_RSS_MIB} MiB"
LAPTOP = dict(n_layer=4, n_head=4, n_embd=128, block_size=64, batch_size=12, max_iters=2000, lr=1e-3, min_lr=1e-4,
              warmup=100, weight_decay=0.1, beta2=0.99, grad_clip=1.0, eval_interval=250, eval_iters=20)
SEEDS = (1337, 1, 2)
# the goals for shakespeare-cpu against nanoGPT's laptop run
LOSS_MARGIN, WALL_RATIO, RSS_RATIO = 0.08, 0.85, 1.25


class RefBlock(nn.Module):
    def __init__(self, C: int, n_head: int):
        super().__init__()
        self.n_head = n_head
        self.ln_1 = nn.LayerNorm(C, bias=False)
        self.c_attn = nn.Linear(C, 3 * C, bias=False)  # q, k and v in one matmul
        self.attn_proj = nn.Linear(C, C, bias=False)
        self.ln_2 = nn.LayerNorm(C, bias=False)
        self.c_fc = nn.Linear(C, 4 * C, bias=False)
        self.mlp_proj = nn.Linear(4 * C, C, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.attn_proj(y)
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x))))  # exact GELU, as nn.GELU()


class RefGPT(nn.Module):
    def __init__(self, vocab_size: int, n_layer: int, n_head: int, n_embd: int, block_size: int):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList([RefBlock(n_embd, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd, bias=False)
        for name, p in self.named_parameters():  # N(0, 0.02); residual projections scaled down; gains 1
            if p.dim() >= 2:
                std = 0.02 / math.sqrt(2 * n_layer) if name.endswith("proj.weight") else 0.02
                nn.init.normal_(p, 0.0, std)

    def forward(self, idx: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        x = self.wte(idx) + self.wpe(torch.arange(idx.size(1)))
        for block in self.blocks:
            x = block(x)
        logits = self.ln_f(x) @ self.wte.weight.T
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def score_val(loss_of, val: np.ndarray, T: int = 64, batch: int = 12) -> float:
    """Mean loss over the whole validation split in consecutive windows of T tokens (the same for every model)."""
    n = (len(val) - 1) // T
    x = torch.from_numpy(val[: n * T].astype(np.int64)).view(n, T)
    y = torch.from_numpy(val[1 : n * T + 1].astype(np.int64)).view(n, T)
    with torch.no_grad():
        total = sum(loss_of(x[i : i + batch], y[i : i + batch]) * len(x[i : i + batch]) for i in range(0, n, batch))
    return total / n


def ref_worker(seed: int) -> dict:
    """nanoGPT's laptop run (the reference above) in this process."""
    from minigpt.data import shakespeare_corpus

    c = LAPTOP
    corpus = shakespeare_corpus()
    data = {"train": corpus.train.astype(np.uint16), "val": corpus.val.astype(np.uint16)}  # nanoGPT's .bin dtype
    torch.manual_seed(seed)
    model = RefGPT(corpus.tokenizer.vocab_size, c["n_layer"], c["n_head"], c["n_embd"], c["block_size"])
    groups = [{"params": [p for p in model.parameters() if p.dim() >= 2], "weight_decay": c["weight_decay"]},
              {"params": [p for p in model.parameters() if p.dim() < 2], "weight_decay": 0.0}]
    opt = torch.optim.AdamW(groups, lr=c["lr"], betas=(0.9, c["beta2"]))

    def get_batch(split):
        d, T = data[split], c["block_size"]
        ix = torch.randint(len(d) - T, (c["batch_size"],))
        x = torch.stack([torch.from_numpy(d[i : i + T].astype(np.int64)) for i in ix])
        y = torch.stack([torch.from_numpy(d[i + 1 : i + 1 + T].astype(np.int64)) for i in ix])
        return x, y

    def lr_at(it):
        if it < c["warmup"]:
            return c["lr"] * (it + 1) / (c["warmup"] + 1)
        ratio = (it - c["warmup"]) / (c["max_iters"] - c["warmup"])
        return c["min_lr"] + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (c["lr"] - c["min_lr"])

    val = None
    for it in range(c["max_iters"] + 1):
        if it % c["eval_interval"] == 0:
            model.eval()
            with torch.no_grad():  # nanoGPT estimates both splits; the benchmark keeps the validation one
                val = {s: torch.stack([model(*get_batch(s)) for _ in range(c["eval_iters"])]).mean().item()
                       for s in ("train", "val")}["val"]
            model.train()
            if it == c["max_iters"]:
                break
        for g in opt.param_groups:
            g["lr"] = lr_at(it)
        loss = model(*get_batch("train"))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), c["grad_clip"])
        opt.step()
        opt.zero_grad(set_to_none=True)
        loss.item()  # nanoGPT logs every step with --log_interval=1
    model.eval()
    return {"own_val": val, "score": lambda: score_val(lambda x, y: model(x, y).item(), corpus.val)}


def ours_worker(seed: int, nanogpt_settings: bool) -> dict:
    """``minigpt train --preset shakespeare-cpu`` in this process, or the preset set to nanoGPT's laptop values."""
    from minigpt.data import shakespeare_corpus
    from minigpt.presets import get_preset
    from minigpt.train import train

    overrides = {}
    if nanogpt_settings:
        c = LAPTOP
        overrides = dict(n_layer=c["n_layer"], max_steps=c["max_iters"], lr=c["lr"], min_lr=c["min_lr"],
                         dtype="float32")
    corpus = shakespeare_corpus()
    with tempfile.TemporaryDirectory(prefix="minigpt-bench-") as out:
        result = train(get_preset("shakespeare-cpu", seed=seed, out_dir=out, **overrides), corpus=corpus,
                       progress=False)
    model = result.model.eval()
    return {"own_val": result.val_loss, "score": lambda: score_val(lambda x, y: model(x, y)[1].item(), corpus.val)}


def worker(kind: str, seed: int) -> dict:
    run = ref_worker(seed) if kind == "ref" else ours_worker(seed, kind == "ours-nanogpt")
    rss_mib = peak_rss_mib()
    t0 = time.perf_counter()
    full_val = run["score"]()
    return {"own_val": run["own_val"], "full_val": full_val, "score_s": time.perf_counter() - t0,
            "peak_rss_mib": rss_mib}


def measure(kind: str, seed: int) -> dict:
    """One run in a fresh process; its wall time without the untimed scoring at the end."""
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, kind, "--seed", str(seed)], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if done.returncode:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"bench worker {kind} --seed {seed} failed: {tail}")
    row = json.loads(done.stdout.strip().splitlines()[-1])
    row["wall_s"] = wall - row["score_s"]
    return row


def report(say, options) -> None:
    """The [nanogpt] section of minigpt bench (about 7 runs of a minute each, one after another)."""
    say("\n[nanogpt] nanoGPT-shaped reference (its laptop config for shakespeare_char) beside minigpt, one fresh "
        "process each, one after another; losses scored on the whole validation split")
    say(f"  nanoGPT's own train.py measured once on a 2-core Xeon: {NANOGPT_MEASURED} (its 20-batch val)")
    rows = {}
    for kind, name in (("ref", "nanoGPT-shaped reference"), ("ours-nanogpt", "minigpt at nanoGPT's settings")):
        rows[kind] = [measure(kind, seed) for seed in SEEDS]
        r = rows[kind]
        mean = sum(x["full_val"] for x in r) / len(r)
        vals = ", ".join(f"{x['full_val']:.4f}" for x in r)
        walls = ", ".join(f"{x['wall_s']:.0f}" for x in r)
        say(f"  {name:30s} seeds {SEEDS}: val {vals} (mean {mean:.4f}); wall {walls} s")
    ref_mean = sum(x["full_val"] for x in rows["ref"]) / len(SEEDS)
    ours_mean = sum(x["full_val"] for x in rows["ours-nanogpt"]) / len(SEEDS)
    say(f"  at nanoGPT's settings, ours - reference = {ours_mean - ref_mean:+.4f} (goal <= 0: "
        f"{say.mark(ours_mean <= ref_mean)})")
    ref, ours = rows["ref"][0], measure("ours", SEEDS[0])
    say(f"  shakespeare-cpu (seed {SEEDS[0]}): val {ours['full_val']:.4f} against {ref['full_val']:.4f} "
        f"({ours['full_val'] - ref['full_val']:+.4f}, goal <= -{LOSS_MARGIN}: "
        f"{say.mark(ours['full_val'] <= ref['full_val'] - LOSS_MARGIN)}); wall {ours['wall_s']:.1f} s against "
        f"{ref['wall_s']:.1f} s ({ours['wall_s'] / ref['wall_s']:.2f}x, goal <= {WALL_RATIO}: "
        f"{say.mark(ours['wall_s'] <= WALL_RATIO * ref['wall_s'])}); peak RSS {ours['peak_rss_mib']:.0f} MiB against "
        f"{ref['peak_rss_mib']:.0f} MiB ({ours['peak_rss_mib'] / ref['peak_rss_mib']:.2f}x, goal <= {RSS_RATIO}: "
        f"{say.mark(ours['peak_rss_mib'] <= RSS_RATIO * ref['peak_rss_mib'])})")


if __name__ == "__main__":
    p = argparse.ArgumentParser(prog="python benchmarks/nanogpt.py")
    p.add_argument("kind", choices=["ref", "ours", "ours-nanogpt"])
    p.add_argument("--seed", type=int, default=SEEDS[0])
    a = p.parse_args()
    print(json.dumps(worker(a.kind, a.seed)))
