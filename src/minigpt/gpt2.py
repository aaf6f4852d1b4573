"""OpenAI's GPT-2 in our PyTorch twin: read a checkpoint in Hugging Face's layout, and write one.

A GPT-2 folder as the Hugging Face hub serves it (``openai-community/gpt2``) holds ``config.json`` (the
shape), ``model.safetensors`` (the weights), and the tokenizer's ``vocab.json`` and ``merges.txt``. The
twin already has GPT-2's architecture (learned positions, pre-LayerNorm with biases, tanh GELU, an output
head tied to ``wte``); three things differ, all in how the weights are stored:

- names: ``h.3.mlp.c_fc.weight`` is our ``blocks.3.mlp.c_fc.weight`` (and may start with ``transformer.``);
- GPT-2's linear layers are ``Conv1D`` modules that compute ``x @ W + b`` with W stored (in, out);
  ``nn.Linear`` computes ``x @ W.T + b`` with W stored (out, in): every such weight is transposed;
- ``c_attn`` holds the queries, keys and values of all heads in one (C, 3C) matrix; we have ``c_q``,
  ``c_k``, ``c_v``: it is split in three.

The files also hold each layer's causal mask (``h.N.attn.bias``, a buffer, not a weight): it is left out.
``load_gpt2`` reads a folder, ``save_gpt2`` writes our model (and a byte-level BPE tokenizer) in the same
layout, and ``generate`` continues a prompt.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save

from minigpt.bpe import BPETokenizer, bytes_to_unicode
from minigpt.checkpoint import CheckpointError, load_state
from minigpt.config import GPTConfig
from minigpt.files import atomic_write
from minigpt.gpt_torch import GPT

MODEL_FILES = ("config.json", "model.safetensors")
TOKENIZER_FILES = ("vocab.json", "merges.txt")
END_OF_TEXT = "<|endoftext|>"  # GPT-2's one special token: it separates documents
TANH_GELU = ("gelu_new", "gelu_pytorch_tanh")  # Hugging Face's names of the tanh GELU our MLP uses

# --8<-- [start:from_hf]
CONV1D = ("attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")  # stored (in, out): transposed
BUFFERS = ("attn.bias", "attn.masked_bias")  # each layer's causal mask: not weights, left out


def from_hf(name: str, tensor: torch.Tensor) -> dict[str, torch.Tensor]:
    """One tensor of a Hugging Face GPT-2 checkpoint as our twin's: {our name: tensor}, {} for a buffer."""
    name = name.removeprefix("transformer.")
    if not name.startswith("h."):
        return {name: tensor}  # wte, wpe, ln_f: the same names and layout
    _, layer, rest = name.split(".", 2)  # "h.3.mlp.c_fc.weight" -> "3", "mlp.c_fc.weight"
    ours = f"blocks.{layer}."
    if rest in BUFFERS:
        return {}
    if rest == "attn.c_attn.weight":  # (C, 3C): the columns are q | k | v
        q, k, v = tensor.t().chunk(3, dim=0)  # (3C, C) -> three (C, C), each (out, in)
        return {ours + "attn.c_q.weight": q, ours + "attn.c_k.weight": k, ours + "attn.c_v.weight": v}
    if rest == "attn.c_attn.bias":  # (3C,) -> three (C,)
        q, k, v = tensor.chunk(3)
        return {ours + "attn.c_q.bias": q, ours + "attn.c_k.bias": k, ours + "attn.c_v.bias": v}
    if rest in CONV1D:
        return {ours + rest: tensor.t()}  # (in, out) -> (out, in)
    return {ours + rest: tensor}  # ln_1, ln_2 and the biases
# --8<-- [end:from_hf]


def to_hf(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Our twin's ``state_dict`` in Hugging Face's names and layout (``from_hf`` backwards), as
    ``GPT2LMHeadModel.save_pretrained`` writes it: a ``transformer.`` prefix, no separate output head."""
    out = {}
    for name, tensor in state.items():
        if not name.startswith("blocks."):
            out[name] = tensor
            continue
        _, layer, rest = name.split(".", 2)
        hf = f"h.{layer}."
        if rest.startswith(("attn.c_k.", "attn.c_v.")):
            continue  # joined with c_q below
        if rest.startswith("attn.c_q."):
            kind = rest.rsplit(".", 1)[1]  # weight or bias
            q, k, v = (state[f"blocks.{layer}.attn.c_{x}.{kind}"] for x in "qkv")
            out[hf + "attn.c_attn." + kind] = torch.cat((q, k, v)).t() if kind == "weight" else torch.cat((q, k, v))
        elif rest in CONV1D:
            out[hf + rest] = tensor.t()
        else:
            out[hf + rest] = tensor
    return {"transformer." + k: v.detach().contiguous() for k, v in out.items()}


def is_hf_folder(path) -> bool:
    """Whether ``path`` is a folder meant as a checkpoint in Hugging Face's layout: no ckpt.pt of ours, and
    config.json or model.safetensors (``load_gpt2`` then names whichever file is missing)."""
    path = Path(path).expanduser()
    return path.is_dir() and not (path / "ckpt.pt").exists() and any((path / f).exists() for f in MODEL_FILES)


def _need(folder: Path, names: tuple[str, ...], what: str) -> None:
    missing = [n for n in names if not (folder / n).is_file()]
    if not folder.is_dir():
        raise CheckpointError(f"no folder {folder} (a GPT-2 folder holds {', '.join(MODEL_FILES + TOKENIZER_FILES)})")
    if missing:
        raise CheckpointError(f"{folder} has no {' and no '.join(missing)}: {what} in Hugging Face's layout "
                              f"needs {' and '.join(names)}")


def gpt_config(hf: dict, where: str = "config.json") -> GPTConfig:
    """Our ``GPTConfig`` for a Hugging Face GPT-2 ``config.json``; a setting the twin cannot hold is an error
    that names it."""
    def refuse(key, why):
        raise CheckpointError(f"{where}: {key}={hf.get(key)!r}, {why}; the twin holds GPT-2's own architecture only")

    if hf.get("model_type", "gpt2") != "gpt2":
        refuse("model_type", "not gpt2")
    if hf.get("activation_function", "gelu_new") not in TANH_GELU:
        refuse("activation_function", "our MLP uses the tanh GELU (gelu_new)")
    if hf.get("layer_norm_epsilon", 1e-5) != 1e-5:
        refuse("layer_norm_epsilon", "our LayerNorm uses 1e-5")
    if hf.get("n_inner") not in (None, 4 * hf.get("n_embd", 0)):
        refuse("n_inner", "our MLP is 4 * n_embd wide")
    for key, want in (("tie_word_embeddings", True), ("scale_attn_weights", True),
                      ("scale_attn_by_inverse_layer_idx", False), ("add_cross_attention", False)):
        if hf.get(key, want) != want:
            refuse(key, f"we need {want}")
    try:
        return GPTConfig(vocab_size=hf["vocab_size"], block_size=hf.get("n_positions", hf.get("n_ctx")),
                         n_layer=hf["n_layer"], n_head=hf["n_head"], n_embd=hf["n_embd"])
    except KeyError as e:
        raise CheckpointError(f"{where} has no {e.args[0]}") from None
    except ValueError as e:
        raise CheckpointError(f"{where}: {e}") from None


def load_gpt2(folder, device: str | torch.device = "cpu", dtype: torch.dtype | None = None) -> GPT:
    """Our torch GPT in eval mode, holding the weights of the Hugging Face GPT-2 checkpoint in ``folder``
    (config.json and model.safetensors). ``dtype``: the model's (default: float32, as the file's weights)."""
    folder = Path(folder).expanduser()
    _need(folder, MODEL_FILES, "a GPT-2 checkpoint")
    try:
        config = gpt_config(json.loads((folder / "config.json").read_text(encoding="utf-8")), str(folder / "config.json"))
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError) as e:
        raise CheckpointError(f"{folder / 'config.json'} is not a JSON config ({type(e).__name__})") from None
    try:
        tensors = load_file(folder / "model.safetensors")
    except (SafetensorError, OSError) as e:
        raise CheckpointError(f"{folder / 'model.safetensors'} is damaged or not safetensors ({e})") from None
    state = {}
    for name, tensor in tensors.items():
        if name.removeprefix("transformer.") != "lm_head.weight":
            state.update(from_hf(name, tensor))
    head = tensors.get("lm_head.weight", tensors.get("transformer.lm_head.weight"))
    if head is not None and "wte.weight" in state and not torch.equal(head, state["wte.weight"]):
        raise CheckpointError(f"{folder / 'model.safetensors'}: lm_head.weight is not wte.weight; the twin's "
                              "output head is tied to the token embedding")
    with torch.device("meta"):  # shapes only: the weights come from the file, not from an initialisation
        model = GPT(config)
    model.to_empty(device="cpu")
    load_state(model, {k: v.float() for k, v in state.items()}, str(folder / "model.safetensors"))
    return model.to(device=device, dtype=dtype).eval()


def save_gpt2(model: GPT, folder, tokenizer: BPETokenizer | None = None) -> Path:
    """Write ``model`` (and ``tokenizer``) into ``folder`` in Hugging Face's GPT-2 layout, which ``load_gpt2``
    and ``transformers.GPT2LMHeadModel.from_pretrained`` read."""
    folder = Path(folder)
    c = model.config
    if not c.bias:
        raise ValueError("model: GPT-2 has biases in every Linear and LayerNorm; this model has bias=False")
    config = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "vocab_size": c.vocab_size,
              "n_positions": c.block_size, "n_embd": c.n_embd, "n_layer": c.n_layer, "n_head": c.n_head,
              "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5, "tie_word_embeddings": True,
              "resid_pdrop": c.dropout, "embd_pdrop": c.dropout, "attn_pdrop": c.dropout}
    folder.mkdir(parents=True, exist_ok=True)
    with atomic_write(folder / "config.json", "w") as f:
        f.write(json.dumps(config, indent=2) + "\n")
    tensors = {k: v.cpu() for k, v in to_hf(model.state_dict()).items()}
    with atomic_write(folder / "model.safetensors") as f:
        f.write(_safetensors_bytes(tensors))
    if tokenizer is not None:
        save_tokenizer(tokenizer, folder)
    return folder


def _safetensors_bytes(tensors: dict[str, torch.Tensor]) -> bytes:
    return save(tensors, metadata={"format": "pt"})  # "pt": transformers reads the file as PyTorch's


def save_tokenizer(tokenizer: BPETokenizer, folder) -> None:
    """``tokenizer`` as GPT-2's two files (the inverse of ``BPETokenizer.from_gpt2_files``), keeping its ids."""
    table = bytes_to_unicode()
    words = {i: "".join(table[b] for b in tokenizer.vocab[i]) for i in tokenizer.vocab}  # id -> as the files write it
    for i, text in tokenizer.extra.items():  # a token no merge makes, such as <|endoftext|>: its own text
        words[i] = text.decode("utf-8")
    if len(set(words.values())) < len(words):
        raise ValueError("tokenizer: two of its tokens have the same bytes, which GPT-2's vocab.json cannot hold")
    folder = Path(folder)
    with atomic_write(folder / "vocab.json", "w") as f:
        f.write(json.dumps({words[i]: i for i in sorted(words)}, ensure_ascii=False))
    with atomic_write(folder / "merges.txt", "w") as f:
        f.write("#version: 0.2\n" + "".join(f"{words[a]} {words[b]}\n" for a, b in tokenizer.merges))


def load_tokenizer(folder) -> BPETokenizer:
    """GPT-2's byte-level BPE from ``folder``'s vocab.json and merges.txt."""
    folder = Path(folder).expanduser()
    _need(folder, TOKENIZER_FILES, "GPT-2's tokenizer")
    try:
        return BPETokenizer.from_gpt2_files(folder / "vocab.json", folder / "merges.txt")
    except json.JSONDecodeError as e:
        raise CheckpointError(f"{folder / 'vocab.json'} is not JSON ({e.msg}, line {e.lineno})") from None


def end_of_text(tokenizer: BPETokenizer) -> int | None:
    """The id of ``<|endoftext|>`` in ``tokenizer``, or None when it has none."""
    want = END_OF_TEXT.encode("utf-8")
    return next((i for i, b in tokenizer.extra.items() if b == want), None)


def generate(model: GPT, tokenizer: BPETokenizer, prompt: str = "", max_new_tokens: int = 100,
             temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None, seed: int | None = 0,
             num_samples: int = 1, use_cache: bool = True) -> list[str]:
    """``num_samples`` continuations of ``prompt`` (the new text only), each cut at ``<|endoftext|>``.

    No prompt: the text starts after ``<|endoftext|>``, as GPT-2 saw a new document start. A prompt longer than
    the context keeps its last block_size tokens."""
    eot = end_of_text(tokenizer)
    ids = tokenizer.encode(prompt)
    if not ids:
        if eot is None:
            raise ValueError("prompt: this tokenizer has no <|endoftext|> to start from; give a prompt")
        ids = [eot]
    if max(ids) >= model.config.vocab_size:
        raise ValueError(f"the tokenizer gives id {max(ids)}, but the model has {model.config.vocab_size} tokens: "
                         "the tokenizer's files are not this model's")
    ids = ids[-model.config.block_size:]
    idx = torch.tensor([ids] * num_samples, dtype=torch.long, device=model.wte.weight.device)  # (N, T)
    out = model.generate(idx, max_new_tokens, temperature=temperature, top_k=top_k, top_p=top_p, stop=eot,
                         rng=np.random.default_rng(seed), use_cache=use_cache)
    texts = []
    for row in out[:, len(ids):].tolist():
        if eot is not None and eot in row:
            row = row[: row.index(eot)]
        texts.append(tokenizer.decode(row))
    return texts
