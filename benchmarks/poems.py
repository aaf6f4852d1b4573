"""A trained poems-cpu checkpoint: validation loss, and how often samples have the requested form."""

from __future__ import annotations

import time

import numpy as np
import torch


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
    from minigpt.generate import decode_rows, load_model

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
    rng = np.random.default_rng(0)
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
                                 rng=rng)
            for text in decode_rows(tokenizer, out[:, length:].tolist()):
                results[form].append(poetry.check_form(text, form).ok)
    n = sum(len(r) for r in results.values())
    return {"checkpoint": ckpt["path"], "step": int(ckpt["step"]), "val_loss": val_loss,
            "val_tokens": count, "samples": n, "temperature": temperature,
            "form_match": sum(sum(r) for r in results.values()) / max(1, n),
            "by_form": {f: sum(r) / max(1, len(r)) for f, r in results.items()},
            "seconds": time.perf_counter() - t0}
