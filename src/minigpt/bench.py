"""``minigpt bench``: speed and quality measured side by side, on this machine, in one run.

Sections (``minigpt bench engine generate`` picks some; the default runs the quick ones):

- ``engine``: ms per training step (forward + backward + AdamW) of the numpy GPT and the PyTorch
  GPT at ``GPTConfig.tiny``, batch 8, float32, and their ratio.
- ``shakespeare``: tokens/s, ms/step and peak memory (RSS) of the ``shakespeare-cpu`` preset, in a
  fresh subprocess so the memory number is clean; ``--full`` also trains the whole preset and
  reports validation loss and wall time.
- ``generate``: tokens/s with and without the KV cache on the poems model's shape, and whether
  greedy decoding gives the same tokens both ways.
- ``poems``: a trained ``poems-cpu`` checkpoint's validation loss (nats per character) and the share
  of samples at temperature 0.8 whose shape matches the requested form.
"""

from __future__ import annotations

import json
import math
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

from minigpt.bench_engine import time_steps, torch_train_step

SECTIONS = ("engine", "shakespeare", "generate", "poems")
DEFAULT_SECTIONS = ("engine", "shakespeare", "generate")

# targets from the project's issue, printed next to the measurements
TARGET_ENGINE_RATIO = 3.0  # numpy within 3x of torch
TARGET_TOKENS_PER_S = 36_000
TARGET_VAL_LOSS = 1.80
TARGET_WALL_S = 60.0
TARGET_RSS_MIB = 400
NANOGPT_MS_PER_STEP = 23.5  # nanoGPT's laptop config on a 2-core machine of this kind (TOOLCHAIN.md)
NANOGPT_VAL_LOSS = 1.886


def peak_rss_mib() -> float:
    """This process's peak resident memory in MiB (ru_maxrss: KiB on Linux, bytes on macOS)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024




# ---- engine ----------------------------------------------------------------------------------------
def bench_engine(batch_size: int = 8, seconds: float = 1.5, rounds: int = 3) -> dict:
    """ms per training step of the numpy GPT and the torch GPT on the same tiny shape, weights and data,
    each timed in a fresh process of its own (see minigpt.bench_engine for why). The two alternate for
    ``rounds`` rounds and each keeps its fastest round: on a shared machine, slow rounds are noise."""
    ms: dict[str, list[float]] = {"numpy": [], "torch": []}
    for _ in range(rounds):
        for engine in ms:
            cmd = [sys.executable, "-m", "minigpt.bench_engine", engine, str(seconds)]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode:
                tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
                raise RuntimeError(f"bench engine {engine} failed: {tail}")
            ms[engine].append(json.loads(done.stdout.strip().splitlines()[-1])["ms"])
    best = {engine: min(values) for engine, values in ms.items()}
    return {"shape": f"GPTConfig.tiny (2 layers, 4 heads, 64 wide, context 32), batch {batch_size}, float32, "
                     f"each engine in a fresh process, best of {rounds} alternating rounds",
            "numpy_ms": best["numpy"], "torch_ms": best["torch"], "ratio": best["numpy"] / best["torch"],
            "rounds_ms": ms, "torch_optimizer": "fused AdamW"}


# ---- shakespeare (in a subprocess) ----------------------------------------------------------------
class NanoGPTReference(torch.nn.Module):
    """nanoGPT's model.py, condensed: one c_attn for q, k, v, exact GELU, a tied lm_head.

    Only here to time a step next to ours on the same machine (the reference numbers in the issue
    were measured on another machine of this kind).
    """

    def __init__(self, vocab_size: int, block_size: int, n_layer: int, n_head: int, n_embd: int):
        super().__init__()
        nn = torch.nn
        self.n_head, self.block_size = n_head, block_size
        self.wte, self.wpe = nn.Embedding(vocab_size, n_embd), nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList(nn.ModuleDict({
            "ln_1": nn.LayerNorm(n_embd), "c_attn": nn.Linear(n_embd, 3 * n_embd), "c_proj": nn.Linear(n_embd, n_embd),
            "ln_2": nn.LayerNorm(n_embd), "c_fc": nn.Linear(n_embd, 4 * n_embd),
            "mlp_proj": nn.Linear(4 * n_embd, n_embd)}) for _ in range(n_layer))
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.wte.weight = self.lm_head.weight  # tied, as in nanoGPT

    def forward(self, idx, targets):
        F = torch.nn.functional
        B, T = idx.shape
        x = self.wte(idx) + self.wpe(torch.arange(T))  # (B, T, C)
        C, nh = x.size(-1), self.n_head
        for b in self.blocks:
            q, k, v = b["c_attn"](b["ln_1"](x)).split(C, dim=2)
            q, k, v = (t.view(B, T, nh, C // nh).transpose(1, 2) for t in (q, k, v))  # (B, nh, T, hs)
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, T, C)
            x = x + b["c_proj"](y)
            x = x + b["mlp_proj"](F.gelu(b["c_fc"](b["ln_2"](x))))
        logits = self.lm_head(self.ln_f(x))  # (B, T, V)
        return logits, F.cross_entropy(logits.view(B * T, -1), targets.view(-1))


def step_ms(config, vocab_size: int, reference: bool, seconds: float = 3.0) -> float:
    """ms per step (fwd+bwd+clip+fused AdamW) at ``config``'s shape, random tokens, after a warm-up:
    of our GPT (minigpt.model), or of the nanoGPT-shaped reference (``reference=True``)."""
    from minigpt.model import GPT

    torch.manual_seed(0)
    if reference:
        model = NanoGPTReference(vocab_size, config.block_size, config.n_layer, config.n_head, config.n_embd)
    else:
        model = GPT(config.gpt_config(vocab_size))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)
    x = torch.randint(0, vocab_size, (config.batch_size, config.block_size))
    y = torch.randint(0, vocab_size, (config.batch_size, config.block_size))
    step = torch_train_step(model, opt, x, y)
    return 1000 * time_steps(step, warmup=5, min_steps=20, min_seconds=seconds)


def shakespeare_worker(steps: int | None, threads: int | None, dtype: str = "auto") -> dict:
    """Run in a fresh process: train shakespeare-cpu (``steps`` steps, or the whole preset) and measure."""
    from minigpt.presets import get_preset
    from minigpt.train import resolve_dtype, train

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="minigpt-bench-") as out:
        overrides = {"out_dir": out, "threads": threads, "device": "cpu", "dtype": dtype}
        if steps is not None:  # throughput only: one evaluation at the end
            overrides.update(max_steps=steps, eval_interval=steps, eval_iters=1)
        config = get_preset("shakespeare-cpu", **overrides)
        result = train(config, progress=False, plot=steps is None)
    rss = peak_rss_mib()  # before the reference model runs: our memory alone
    same_harness = {}
    if steps is not None and dtype == "float32":  # both models timed the same way, one after the other
        same_harness = {name: step_ms(config, result.tokenizer.vocab_size, reference=name == "reference")
                        for name in ("ours", "reference")}
    return {"same_harness_ms": same_harness, "steps": result.step, "tokens_per_s": result.tokens_per_s, "ms_per_step": result.ms_per_step,
            "val_loss": result.val_loss, "train_elapsed_s": result.elapsed,
            "process_wall_s": time.perf_counter() - t0, "peak_rss_mib": rss,
            "threads": torch.get_num_threads(), "tokens_per_step": config.tokens_per_step,
            "dtype": str(resolve_dtype(dtype, torch.device("cpu"))).removeprefix("torch.")}


def _run_worker(args: list[str]) -> dict:
    cmd = [sys.executable, "-m", "minigpt.bench", "--worker", *args]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise RuntimeError(f"bench worker {' '.join(args)} failed: {tail}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_shakespeare(steps: int = 200, full: bool = False, threads: int | None = None) -> dict:
    extra = ["--threads", str(threads)] if threads else []
    out = {"quick": _run_worker(["shakespeare", "--steps", str(steps), *extra]),
           "quick_fp32": _run_worker(["shakespeare", "--steps", str(steps), "--dtype", "float32", *extra])}
    if full:
        out["full"] = _run_worker(["shakespeare", *extra])
    return out


# ---- generation -------------------------------------------------------------------------------------
def time_generation(model, prompt: torch.Tensor, new_tokens: int, use_cache: bool):
    """(tokens, tokens per second) of greedy ``model.generate`` from ``prompt``, after a short warm-up."""
    model.generate(prompt, min(new_tokens, 8), temperature=0.0, use_cache=use_cache)  # warm-up
    t0 = time.perf_counter()
    out = model.generate(prompt, new_tokens, temperature=0.0, use_cache=use_cache)
    return out, (out.size(1) - prompt.size(1)) * prompt.size(0) / (time.perf_counter() - t0)


def bench_generate(new_tokens: int = 256, checkpoint: str | None = "runs/poems-cpu") -> dict:
    """KV cache vs none: tokens/s of greedy generation on the poems model's shape, one row."""
    from minigpt.model import GPT
    from minigpt.presets import get_preset

    source = "random weights"
    model = None
    if checkpoint:
        from minigpt.checkpoint import CheckpointError, resolve

        if resolve(checkpoint).is_file():
            from minigpt.sample import load_model

            try:
                model, _, _ = load_model(checkpoint)
                source = f"trained weights from {resolve(checkpoint)}"
            except CheckpointError:
                model = None
    if model is None:
        from minigpt.data import poem_corpus

        vocab_size = poem_corpus().tokenizer.vocab_size
        torch.manual_seed(0)
        model = GPT(get_preset("poems-cpu").gpt_config(vocab_size)).eval()
    prompt = torch.tensor([[1]])  # <bos>
    block_size = model.config.block_size

    rows = []
    for n in dict.fromkeys((new_tokens, 2 * block_size)):  # within the context, then well past it
        cached, cached_tps = time_generation(model, prompt, n, use_cache=True)
        plain, plain_tps = time_generation(model, prompt, n, use_cache=False)
        rows.append({"new_tokens": n, "context": block_size, "cached_tok_s": cached_tps, "uncached_tok_s": plain_tps,
                     "speedup": cached_tps / plain_tps, "identical": bool(torch.equal(cached, plain))})
    c = model.config
    return {"shape": f"{c.n_layer} layers, {c.n_head} heads, {c.n_embd} wide, context {c.block_size}, "
                     f"vocab {c.vocab_size} ({source})", "rows": rows}


# ---- poems quality ----------------------------------------------------------------------------------
def _val_prompts(corpus) -> list[tuple[str, list[int]]]:
    """(form, prompt ids) of every validation poem: the stream's <bos> form <sep> keywords <sep> prefixes."""
    tok = corpus.tokenizer
    val = corpus.val.tolist()
    prompts = []
    starts = [i for i, t in enumerate(val) if t == tok.bos_id]
    for s in starts:
        try:
            sep1 = val.index(tok.sep_id, s)
            sep2 = val.index(tok.sep_id, sep1 + 1)
        except ValueError:
            continue
        form = tok.decode(val[s + 1 : sep1])
        prompts.append((form, val[s : sep2 + 1]))
    return prompts


def bench_poems(checkpoint: str = "runs/poems-cpu", samples: int = 200, temperature: float = 0.8) -> dict:
    from minigpt import poetry
    from minigpt.data import poem_corpus
    from minigpt.sample import decode_rows, load_model

    model, tokenizer, ckpt = load_model(checkpoint)
    corpus = poem_corpus()
    if corpus.tokenizer.to_dict() != ckpt["tokenizer"]:
        raise ValueError(f"checkpoint {ckpt['path']} was not trained on this poem corpus (vocabularies differ)")
    block_size = model.config.block_size

    # validation loss over the whole split, in consecutive windows of block_size
    val = torch.from_numpy(corpus.val)
    n_windows = (len(val) - 1) // block_size
    x = val[: n_windows * block_size].view(n_windows, block_size)  # (N, T)
    y = val[1 : n_windows * block_size + 1].view(n_windows, block_size)
    total, count = 0.0, 0
    with torch.no_grad():
        for i in range(0, n_windows, 32):
            logits, _ = model(x[i : i + 32])
            total += torch.nn.functional.cross_entropy(
                logits.flatten(0, 1), y[i : i + 32].flatten(), reduction="sum").item()
            count += y[i : i + 32].numel()
    val_loss = total / count

    # form match: the same number of samples per form, prompts from validation poems
    by_form: dict[str, list[list[int]]] = {f: [] for f in poetry.FORMS}
    for form, ids in _val_prompts(corpus):
        if form in by_form:
            by_form[form].append(ids)
    per_form = {f: samples // len(by_form) + (i < samples % len(by_form)) for i, f in enumerate(by_form)}
    generator = torch.Generator().manual_seed(0)
    results: dict[str, list[bool]] = {f: [] for f in by_form}
    t0 = time.perf_counter()
    for form, prompts in by_form.items():
        chosen = prompts[: per_form[form]]
        groups: dict[int, list[list[int]]] = {}
        for ids in chosen:
            groups.setdefault(len(ids), []).append(ids)
        for length, group in groups.items():
            idx = torch.tensor(group)  # (n, length): same length, so one batch
            out = model.generate(idx, block_size - length, temperature=temperature, stop=tokenizer.eos_id,
                                 generator=generator)
            for text in decode_rows(tokenizer, out[:, length:].tolist()):
                results[form].append(poetry.check_form(text, form).ok)
    n = sum(len(r) for r in results.values())
    return {"checkpoint": ckpt["path"], "step": int(ckpt["step"]), "val_loss": val_loss,
            "val_tokens": count, "samples": n, "temperature": temperature,
            "form_match": sum(sum(r) for r in results.values()) / max(1, n),
            "by_form": {f: sum(r) / max(1, len(r)) for f, r in results.items()},
            "seconds": time.perf_counter() - t0}


# ---- report -------------------------------------------------------------------------------------------
def _mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def run(sections=None, full: bool = False, poems_checkpoint: str = "runs/poems-cpu", samples: int = 200,
        threads: int | None = None, out=None) -> int:
    """Run the chosen sections and print the report; returns 0."""
    out = out or sys.stdout
    sections = list(sections or DEFAULT_SECTIONS)
    if threads:
        torch.set_num_threads(threads)

    def say(line: str = "") -> None:
        print(line, file=out, flush=True)

    say(f"minigpt bench on {platform.machine()} {platform.system()}, {os.cpu_count()} CPUs, python "
        f"{platform.python_version()}, torch {torch.__version__} ({torch.get_num_threads()} threads), numpy "
        f"{np.__version__}")
    if "engine" in sections:
        r = bench_engine()
        say(f"\n[engine] one training step (fwd+bwd+AdamW), {r['shape']}")
        say(f"  numpy GPT   {r['numpy_ms']:8.2f} ms/step")
        say(f"  torch GPT   {r['torch_ms']:8.2f} ms/step  ({r['torch_optimizer']})")
        say(f"  rounds (ms): numpy " + ", ".join(f"{v:.2f}" for v in r["rounds_ms"]["numpy"])
            + "; torch " + ", ".join(f"{v:.2f}" for v in r["rounds_ms"]["torch"]))
        say(f"  numpy/torch {r['ratio']:8.2f}x   target <= {TARGET_ENGINE_RATIO:g}x: "
            f"{_mark(r['ratio'] <= TARGET_ENGINE_RATIO)}")
    if "shakespeare" in sections:
        r = bench_shakespeare(full=full, threads=threads)
        q, q32 = r["quick"], r["quick_fp32"]
        say(f"\n[shakespeare] shakespeare-cpu preset (4 layers, 4 heads, 128 wide, context 64, batch 12), "
            f"{q['threads']} torch threads, fresh process each")
        for row in (q, q32):
            say(f"  {row['steps']} steps, {row['dtype']:>8}: {row['ms_per_step']:.2f} ms/step, "
                f"{row['tokens_per_s']:,.0f} tokens/s (target >= {TARGET_TOKENS_PER_S:,}: "
                f"{_mark(row['tokens_per_s'] >= TARGET_TOKENS_PER_S)}); nanoGPT (float32) {NANOGPT_MS_PER_STEP} "
                f"ms/step -> {NANOGPT_MS_PER_STEP / row['ms_per_step']:.2f}x its speed")
        say(f"  (the preset's dtype is 'auto': {q['dtype']} mixed precision on this CPU)")
        ours, ref = q32["same_harness_ms"]["ours"], q32["same_harness_ms"]["reference"]
        say(f"  float32 step timed alone, random tokens: ours {ours:.2f} ms/step, a nanoGPT-shaped reference "
            f"(fused c_attn, exact GELU) {ref:.2f} ms/step -> ours is {ref / ours:.2f}x its speed on this machine")
        say(f"  peak RSS {q['peak_rss_mib']:.0f} MiB (target <= {TARGET_RSS_MIB}: "
            f"{_mark(q['peak_rss_mib'] <= TARGET_RSS_MIB)})")
        if "full" in r:
            f = r["full"]
            say(f"  full run, {f['steps']} steps, {f['dtype']}: val loss {f['val_loss']:.4f} (target <= {TARGET_VAL_LOSS}: "
                f"{_mark(f['val_loss'] <= TARGET_VAL_LOSS)}; nanoGPT {NANOGPT_VAL_LOSS}), "
                f"training {f['train_elapsed_s']:.1f} s (target <= {TARGET_WALL_S:g}: "
                f"{_mark(f['train_elapsed_s'] <= TARGET_WALL_S)}), process {f['process_wall_s']:.1f} s, "
                f"{f['tokens_per_s']:,.0f} tokens/s, {f['ms_per_step']:.2f} ms/step, "
                f"peak RSS {f['peak_rss_mib']:.0f} MiB")
        else:
            say("  (add --full for the whole 2000-step run: validation loss and wall time, about a minute)")
    if "generate" in sections:
        r = bench_generate(checkpoint=poems_checkpoint)
        say(f"\n[generate] greedy, batch 1, from <bos>; {r['shape']}")
        for row in r["rows"]:
            past = row["new_tokens"] - row["context"]  # steps whose context (prompt <bos> + tokens) overflows
            note = f" (the last {past} steps slide the window: the cache is rebuilt each)" if past > 0 else ""
            say(f"  {row['new_tokens']:4d} new tokens: KV cache {row['cached_tok_s']:8,.0f} tok/s, "
                f"no cache {row['uncached_tok_s']:8,.0f} tok/s, {row['speedup']:.2f}x; "
                f"identical tokens: {row['identical']}{note}")
    if "poems" in sections:
        from minigpt.checkpoint import resolve

        if not resolve(poems_checkpoint).is_file():
            say(f"\n[poems] skipped: no checkpoint at {resolve(poems_checkpoint)} "
                f"(train one: minigpt train --preset poems-cpu)")
        else:
            r = bench_poems(poems_checkpoint, samples=samples)
            say(f"\n[poems] {r['checkpoint']} after {r['step']} steps")
            say(f"  validation loss {r['val_loss']:.4f} nats/char over {r['val_tokens']:,} tokens "
                f"(perplexity {math.exp(r['val_loss']):.1f})")
            say(f"  form matches {r['form_match']:.1%} of {r['samples']} samples at temperature {r['temperature']} "
                f"(" + ", ".join(f"{f} {s:.0%}" for f, s in r["by_form"].items()) + f"); {r['seconds']:.1f} s")
    return 0


def _worker_main(argv: list[str]) -> None:
    import argparse

    p = argparse.ArgumentParser(prog="python -m minigpt.bench --worker")
    p.add_argument("what", choices=["shakespeare"])
    p.add_argument("--steps", type=int)
    p.add_argument("--threads", type=int)
    p.add_argument("--dtype", default="auto")
    a = p.parse_args(argv)
    print(json.dumps(shakespeare_worker(a.steps, a.threads, a.dtype)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        _worker_main(sys.argv[2:])
    else:
        from minigpt.cli import main

        raise SystemExit(main(["bench", *sys.argv[1:]]))
