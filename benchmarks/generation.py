"""Generation speed with and without the KV cache, and whether both give the same tokens."""

from __future__ import annotations

import time

import torch


def time_generation(model, prompt: torch.Tensor, new_tokens: int, use_cache: bool):
    """(tokens, tokens per second) of greedy ``model.generate`` from ``prompt``, after a short warm-up."""
    model.generate(prompt, min(new_tokens, 8), temperature=0.0, use_cache=use_cache)  # warm-up
    t0 = time.perf_counter()
    out = model.generate(prompt, new_tokens, temperature=0.0, use_cache=use_cache)
    return out, (out.size(1) - prompt.size(1)) * prompt.size(0) / (time.perf_counter() - t0)


def bench_generate(new_tokens: int = 256, checkpoint: str | None = "runs/poems-cpu") -> dict:
    """KV cache vs none: tokens/s of greedy generation on the poems model's shape, one row."""
    from minigpt.gpt_torch import GPT
    from minigpt.presets import get_preset

    source = "random weights"
    model = None
    if checkpoint:
        from minigpt.checkpoint import CheckpointError, resolve

        if resolve(checkpoint).is_file():
            from minigpt.generate import load_model

            try:
                model, _, _ = load_model(checkpoint)
                source = f"trained weights from {resolve(checkpoint)}"
            except CheckpointError:
                model = None
    if model is None:
        from minigpt.data import poem_corpus

        vocab_size = poem_corpus().tokenizer.vocab_size
        model = GPT(get_preset("poems-cpu").gpt_config(vocab_size), seed=0).eval()
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


def report(say, options) -> None:
    """The [generate] section of minigpt bench."""
    r = bench_generate(checkpoint=options.poems_checkpoint)
    say(f"\n[generate] greedy, batch 1, from <bos>; {r['shape']}")
    for row in r["rows"]:
        past = row["new_tokens"] - row["context"]  # steps whose context (prompt <bos> + tokens) overflows
        note = f" (the last {past} steps slide the window: the cache is rebuilt each)" if past > 0 else ""
        say(f"  {row['new_tokens']:4d} new tokens: KV cache {row['cached_tok_s']:8,.0f} tok/s, "
            f"no cache {row['uncached_tok_s']:8,.0f} tok/s, {row['speedup']:.2f}x; "
            f"identical tokens: {row['identical']}{note}")
