"""From a checkpoint to text: load the model, build the prompt (or a poem's form and keywords), write.

    model, tokenizer, ckpt = load_model("runs/poems-cpu")
    ids = encode_prompt(tokenizer, ckpt, form="五言绝句", keywords="月,江")
    print(write(model, tokenizer, ids, strict=True, form="五言绝句", keywords="月,江", seed=0)[0])

``write`` is what ``minigpt generate`` prints; ``generate_text`` and ``best_of`` are the steps it takes.

Both engines' checkpoints load into the PyTorch GPT (same parameter names), which has the KV cache.
"""

from __future__ import annotations

import numpy as np
import torch

from minigpt import data, poetry
from minigpt.checkpoint import CheckpointError, check_compatible, load_checkpoint, load_state
from minigpt.config import POEM_CORPORA, GPTConfig
from minigpt.device import resolve_device
from minigpt.gpt_torch import GPT
from minigpt.tokenizer import CharTokenizer

TEMPERATURE = 0.8  # write's temperature without strict (minigpt generate without --strict)
# strict's defaults, chosen by measurement: over 24 poems of poems-cpu, one draw at 0.8 repeated 10.4% of its
# characters and read as nonsense to a blind reader; a cooler draw, the most likely of 8 candidates and the
# no-repeat rule read far better (benchmarks/blind.py; the sampling lesson's "In the model" section).
STRICT_TEMPERATURE = 0.6
STRICT_BEST_OF = 8


def load_model(path, device: str = "cpu"):
    """(torch GPT in eval mode, tokenizer, checkpoint dict) from a checkpoint file or run folder."""
    ckpt = load_checkpoint(path)
    try:
        config = GPTConfig(**ckpt["model_config"])
        tokenizer = CharTokenizer.from_dict(ckpt["tokenizer"])
    except (TypeError, ValueError) as e:
        raise CheckpointError(f"checkpoint {ckpt['path']} has an unreadable config or tokenizer: {e}") from None
    if tokenizer.vocab_size != config.vocab_size:
        raise CheckpointError(f"checkpoint {ckpt['path']}: tokenizer has {tokenizer.vocab_size} tokens "
                              f"but the model {config.vocab_size}")
    check_compatible(ckpt, config.to_dict())
    model = GPT(config)
    if any(getattr(w, "dtype", None) == torch.float64 for w in ckpt["model"].values()):
        model.double()  # trained in float64 (--dtype float64): it samples in float64 too
    load_state(model, ckpt["model"], ckpt["path"])
    model.to(resolve_device(device)).eval()
    return model, tokenizer, ckpt


def corpus_of(ckpt: dict) -> str:
    """Which corpus a checkpoint was trained on ("shakespeare", "poems", ...)."""
    return str(ckpt.get("train_config", {}).get("corpus", "unknown"))


def encode_prompt(tokenizer: CharTokenizer, ckpt: dict, prompt: str | None = None, form: str | None = None,
                  keywords=None) -> list[int]:
    """Token ids to continue.

    Poems model: ``form`` and ``keywords`` build the conditioning prefix ``<bos> form <sep> keywords <sep>``
    and ``prompt`` (optional) is the poem's opening; with neither, generation starts at ``<bos>`` (+ prompt).
    Other models: the prompt's characters; no prompt starts from a newline (or ``<bos>``).
    Unknown characters, forms or too many keywords raise ValueError with one line that says so.
    """
    prompt = prompt or ""
    if corpus_of(ckpt) in POEM_CORPORA:
        if form is not None or keywords is not None:
            if keywords is None:
                raise ValueError("form needs keywords too (1 to 3 words, e.g. keywords='月,江')")
            ids = data.format_prompt(tokenizer, form, keywords)
        else:
            ids = [tokenizer.bos_id]
        return ids + tokenizer.encode(prompt)
    if form is not None or keywords is not None:
        raise ValueError(f"form and keywords need a checkpoint trained on poems; this one was trained on "
                         f"{corpus_of(ckpt)}")
    if prompt:
        return tokenizer.encode(prompt)
    return tokenizer.encode("\n") if "\n" in tokenizer.stoi else [tokenizer.bos_id]


def crop(ids: list[int], block_size: int) -> tuple[list[int], int]:
    """The last ``block_size`` ids and how many were dropped from the front."""
    dropped = max(0, len(ids) - block_size)
    return ids[dropped:], dropped


def generate_text(model, tokenizer: CharTokenizer, ids: list[int], max_new_tokens: int | None = None,
                  temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None,
                  seed: int | None = 0, use_cache: bool = True, num_samples: int = 1,
                  stop_at_eos: bool = True, constraint=None) -> list[str]:
    """``num_samples`` continuations of ``ids``, each decoded up to (not including) the first ``<eos>``.

    max_new_tokens None: up to the end of the context (block_size - prompt length, at least 1).
    ``constraint``: masks the logits at each step (``minigpt.constrain.PoemConstraint``); one per call.
    """
    if max_new_tokens is None:
        max_new_tokens = max(1, model.config.block_size - len(ids))
    rng = np.random.default_rng(seed)  # seed None: a fresh random generator
    idx = torch.tensor([ids] * num_samples, dtype=torch.long, device=model.wte.weight.device)  # (N, T)
    out = model.generate(idx, max_new_tokens, temperature=temperature, top_k=top_k, top_p=top_p,
                         stop=tokenizer.eos_id if stop_at_eos else None, rng=rng, constraint=constraint,
                         use_cache=use_cache)
    return decode_rows(tokenizer, out[:, len(ids):].tolist(), stop_at_eos)


def poem_nll(model, prompt: list[int], poem: list[int]) -> float:
    """Mean negative log-likelihood per token of ``poem`` after ``prompt`` under ``model`` at temperature 1,
    without any constraint: the model's own loss on the text (lower reads as more likely to it)."""
    ids = torch.tensor([prompt + poem], device=model.wte.weight.device)  # (1, T)
    with torch.no_grad():
        logits, _ = model(ids[:, :-1])  # (1, T-1, V): position t predicts token t+1
    logp = torch.log_softmax(logits[0, len(prompt) - 1 :].double(), dim=-1)  # (len(poem), V)
    return -logp[torch.arange(len(poem)), torch.tensor(poem, device=logp.device)].mean().item()


def best_of(model, tokenizer: CharTokenizer, ids: list[int], n: int, num_samples: int = 1,
            make_constraint=None, **kwargs) -> list[tuple[str, float]]:
    """``num_samples`` texts, each the best of ``n`` drawn ones: the one with the lowest ``poem_nll`` (the
    model's own mean loss per token on it), with that loss. ``make_constraint()`` gives a fresh constraint
    (or None); ``kwargs`` go to ``generate_text``. The ``n * num_samples`` candidates are one batch."""
    constraint = make_constraint() if make_constraint else None
    rows = generate_text(model, tokenizer, ids, num_samples=n * num_samples, constraint=constraint, **kwargs)
    scored = [(text, poem_nll(model, ids, tokenizer.encode(text)) if text else float("inf")) for text in rows]
    return [min(scored[k * n : (k + 1) * n], key=lambda ts: ts[1]) for k in range(num_samples)]


def decode_rows(tokenizer: CharTokenizer, rows: list[list[int]], stop_at_eos: bool = True) -> list[str]:
    """Generated ids -> text, each row cut before its first ``<eos>``, special tokens left out."""
    texts = []
    for row in rows:
        if stop_at_eos and tokenizer.eos_id in row:
            row = row[: row.index(tokenizer.eos_id)]
        texts.append(tokenizer.decode(row, skip_special=True))
    return texts


def describe_check(text: str, form: str, keywords=()) -> str:
    """One line of ``poetry.check_poem``'s verdict, e.g.
    ``五言绝句: ok; rhyme 下平声七阳; tones 100% (仄起首句不入韵); keywords 月 江: ok``."""
    check = poetry.check_poem(text, form, keywords)
    parts = [f"{poetry.normalize_form(form)}: {'ok' if check.form.ok else check.form.reason}"]
    if check.rhyme is not None:
        r = check.rhyme
        parts.append(f"rhyme {r.group}{' (line 1 too)' if r.first_line else ''}" if r.ok else f"rhyme: {r.reason}")
    if check.tones is not None:
        parts.append(f"tones {check.tones.share:.0%} ({check.tones.pattern})")
    words = poetry.parse_keywords(keywords) if keywords else ()
    if words:
        k = check.keywords
        parts.append(f"keywords {' '.join(words)}: " + ("ok" if k.ok else "missing " + " ".join(k.missing)))
    return "; ".join(parts)


def strict_constraint(tokenizer: CharTokenizer, form: str, keywords):
    """The constraint ``write(strict=True)`` (``minigpt generate --strict``) writes under: the form's rules, and
    the idiom rules (叠字 only as the Tang poems write them, one per four lines; 春 and 秋 not in one poem; no rhyme
    by a reading the poems never rhyme in, 逢 with 江). A blind reader scored 20 poems written so at sense 2.05 out
    of 5 (2.15 at temperature 0.3); without the idiom rules, three earlier readers gave 1.55-1.75
    (benchmarks/readings, the sampling lesson's "In the model" section)."""
    from minigpt.constrain import PoemConstraint

    return PoemConstraint(tokenizer, form, keywords, idiom=True)


def write(model, tokenizer: CharTokenizer, ids: list[int], *, strict: bool = False, form: str | None = None,
          keywords=None, opening: str = "", num_samples: int = 1, temperature: float | None = None,
          best_of_n: int | None = None, **options) -> list[str]:
    """``num_samples`` texts after ``ids``, as ``minigpt generate`` writes them: what ``strict`` means is decided here.

    strict: each a whole poem of ``form`` with ``keywords`` under ``strict_constraint``, by default the most likely
    to the model of STRICT_BEST_OF drawn at STRICT_TEMPERATURE; ``opening`` is the poem's start, already at the end
    of ``ids``. Otherwise one draw each at TEMPERATURE. ``temperature`` and ``best_of_n`` replace the defaults.
    ``options`` go to ``generate_text`` (seed, top_k, top_p, max_new_tokens, use_cache, stop_at_eos)."""
    constraint = None
    if strict:
        if form is None or keywords is None:
            raise ValueError("strict=True needs form and keywords (e.g. form='五绝', keywords='月,江')")
        constraint = strict_constraint(tokenizer, form, keywords)
        constraint.check_room(options.get("max_new_tokens") or max(1, model.config.block_size - len(ids)), opening)
    if temperature is None:
        temperature = STRICT_TEMPERATURE if strict else TEMPERATURE
    if best_of_n is None:
        best_of_n = STRICT_BEST_OF if strict else 1
    if best_of_n > 1:  # the candidates are one batch: one constraint serves them all
        return [text for text, _ in best_of(model, tokenizer, ids, best_of_n, num_samples,
                                            make_constraint=lambda: constraint, temperature=temperature, **options)]
    return generate_text(model, tokenizer, ids, num_samples=num_samples, constraint=constraint, temperature=temperature,
                         **options)
