"""minigpt.attention_maps and `minigpt attention`: the attention explorer's data, from a small model.

The weights are causal, each row sums to 1, they reproduce every layer's output (a wrong formula is
caught), they equal the numpy GPT's own softmax output on the same weights, and the export holds what
the page reads: per poem its tokens and, per layer and head, the lower triangle in thousandths.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

from minigpt import data, poetry
from minigpt.attention_maps import (PROMPTS, SCALE, AttentionMismatch, attention_weights, export, lower_triangle,
                                    real_poems)
from minigpt.checkpoint import load_checkpoint, save_checkpoint
from minigpt.config import GPTConfig
from minigpt.convert import to_numpy
from minigpt.data import KEYWORD_SEP, Corpus
from minigpt.generate import load_model
from minigpt.gpt import GPT as NumpyGPT
from minigpt.nn import Module
from minigpt.presets import get_preset
from minigpt.tokenizer import CharTokenizer
from minigpt.train import train

from cli_run import run

POEMS = [  # (form, keywords, text)
    ("五言绝句", ["明月"], "床前明月光，疑是地上霜。举头望明月，低头思故乡。"),
    ("五言绝句", ["黄河", "楼"], "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"),
    ("五言绝句", ["花"], "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。"),
    ("五言绝句", ["江", "雪"], "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。"),
    ("七言绝句", ["江陵"], "朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。"),
    ("七言绝句", ["月", "江"], "月落乌啼霜满天，江枫渔火对愁眠。姑苏城外寒山寺，夜半钟声到客船。"),
]
# the prompts' keywords must be in the small vocabulary too
EXTRA = "".join(k for _, ks in PROMPTS for k in ks.split(","))


def small_corpus() -> Corpus:
    """The six poems, 20 times over, encoded as minigpt.data does; the last tenth is the validation split."""
    tok = CharTokenizer(set("".join(p for *_, p in POEMS) + "".join(poetry.FORMS) + poetry.LINE_ENDS
                            + KEYWORD_SEP + EXTRA))
    ids = []
    for form, keywords, text in POEMS * 20:
        ids += data.format_prompt(tok, form, keywords) + tok.encode(text) + [tok.eos_id]
    ids = np.array(ids, dtype=np.int64)
    return Corpus(ids[: len(ids) * 9 // 10], ids[len(ids) * 9 // 10 :], tok, "poems")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A 2-layer, 4-head model trained for 40 steps on the six poems: (run folder, model, tokenizer, ckpt)."""
    out = tmp_path_factory.mktemp("attention")
    config = get_preset("tiny", corpus="poems", block_size=64, max_steps=40, eval_interval=40, eval_iters=2,
                        out_dir=str(out), threads=1, device="cpu")
    train(config, corpus=small_corpus(), progress=False)
    return (out, *load_model(out))


def some_ids(tokenizer):
    form, keywords, text = POEMS[4]
    return data.format_prompt(tokenizer, form, keywords) + tokenizer.encode(text)


# ---- the weights --------------------------------------------------------------------------------

def test_weights_are_causal_and_each_row_sums_to_one(small):
    _, model, tokenizer, _ = small
    ids = some_ids(tokenizer)
    att = attention_weights(model, ids)
    T = len(ids)
    assert att.shape == (2, 4, T, T)
    assert np.all(att[..., np.triu_indices(T, 1)[0], np.triu_indices(T, 1)[1]] == 0)  # nothing after t
    assert att.min() >= 0 and np.allclose(att.sum(-1), 1, atol=1e-5)
    assert np.all(att[:, :, 0, 0] == 1)  # the first position can look only at itself
    assert att[:, :, 1:].max(-1).min() < 0.999  # not every row is one-hot: the heads really spread


def test_the_weights_reproduce_each_layers_output(small):
    """attention_weights checks its own result against the layer's output: a wrong formula is caught."""
    _, model, tokenizer, _ = small
    ids = some_ids(tokenizer)

    def unscaled(attn, x):  # the classic mistake: no 1/sqrt(hs)
        B, T, C = x.shape
        q = attn.c_q(x).view(B, T, attn.n_head, -1).transpose(1, 2)
        k = attn.c_k(x).view(B, T, attn.n_head, -1).transpose(1, 2)
        future = torch.ones(T, T, dtype=torch.bool).triu(1)
        return (q @ k.transpose(-2, -1)).masked_fill(future, float("-inf")).softmax(-1)

    def unmasked(attn, x):  # looks at later tokens too
        B, T, C = x.shape
        q = attn.c_q(x).view(B, T, attn.n_head, -1).transpose(1, 2)
        k = attn.c_k(x).view(B, T, attn.n_head, -1).transpose(1, 2)
        return ((q @ k.transpose(-2, -1)) / math.sqrt(C // attn.n_head)).softmax(-1)

    for wrong in (unscaled, unmasked):
        with pytest.raises(AttentionMismatch, match="do not reproduce"):
            attention_weights(model, ids, weights=wrong)
    attention_weights(model, ids)  # the right one passes


class Recorder(Module):
    """Stands in for the numpy GPT's attention dropout (identity in eval mode) and keeps its input:
    the softmax output the numpy GPT computed itself."""

    def __init__(self, seen: list):
        super().__init__()
        object.__setattr__(self, "seen", seen)

    def forward(self, x):
        self.seen.append(x.data.copy())
        return x


def test_same_weights_as_the_numpy_gpt_computes(small):
    _, model, tokenizer, _ = small
    ids = some_ids(tokenizer)
    twin = NumpyGPT(GPTConfig(**model.config.to_dict()))
    twin.load_state_dict(to_numpy({k: v.detach() for k, v in model.state_dict().items()}))
    twin.eval()
    seen: list = []
    for block in twin.blocks:
        block.attn.attn_dropout = Recorder(seen)
    twin(np.array([ids]))
    own = np.stack([s[0] for s in seen])  # (L, nh, T, T)
    ours = attention_weights(model, ids)
    assert np.abs(own - ours).max() < 1e-5
    assert np.abs(own[::-1] - ours).max() > 1e-2  # control: the layers swapped are told apart


# ---- the export -------------------------------------------------------------------------------

def problems_of(result: dict) -> list[str]:
    """What is wrong with an export, as the page reads it; [] when nothing is."""
    out = []
    L, H = result["model"]["n_layer"], result["model"]["n_head"]
    for n, poem in enumerate(result["poems"]):
        T = len(poem["tokens"])
        attn = poem["attn"]
        if len(attn) != L or any(len(layer) != H for layer in attn):
            out.append(f"poem {n}: not {L} layers x {H} heads")
            continue
        for l, layer in enumerate(attn):
            for h, rows in enumerate(layer):
                if [len(r) for r in rows] != list(range(1, T)):
                    out.append(f"poem {n} layer {l} head {h}: rows are not the lower triangle of {T - 1} rows")
                    continue
                for t, row in enumerate(rows):
                    if min(row) < 0 or abs(sum(row) - result["scale"]) > 0.5 * len(row):
                        out.append(f"poem {n} layer {l} head {h} row {t}: sums to {sum(row)}")
    return out


def test_export_holds_tokens_and_every_layer_and_head(small):
    _, model, tokenizer, ckpt = small
    result = export(model, tokenizer, ckpt, small_corpus(), n_written=2, n_real=2, seed=0, name="small")
    assert result["format"] == "minigpt-attention" and result["scale"] == SCALE
    assert result["model"] == {**result["model"], "name": "small", "n_layer": 2, "n_head": 4, "step": 40,
                               "corpus": "poems"}
    kinds = [p["kind"] for p in result["poems"]]
    assert kinds == ["model", "model", "real", "real"]
    for poem in result["poems"]:
        assert poem["tokens"][0] == "<bos>" and poem["tokens"][-1] == "<eos>"
        assert "".join(poem["tokens"]).endswith(poem["text"] + "<eos>")
        assert poetry.check_poem(poem["text"], poem["form"]).form.ok  # --strict for the model's, real ones real
    assert {p["text"] for p in result["poems"][2:]} <= {text for *_, text in POEMS}
    assert problems_of(result) == []
    # the numbers are those of attention_weights, rounded
    poem = result["poems"][0]
    ids = [tokenizer.stoi.get(t) if len(t) == 1 else getattr(tokenizer, t[1:-1] + "_id") for t in poem["tokens"]]
    att = attention_weights(model, ids[:-1])
    assert poem["attn"] == lower_triangle(att)
    json.dumps(result, ensure_ascii=False)  # plain JSON


def test_the_export_check_sees_a_broken_row(small):
    """Control for problems_of: a row that does not sum to 1, and a row too long, are reported."""
    _, model, tokenizer, ckpt = small
    result = export(model, tokenizer, ckpt, small_corpus(), n_written=1, n_real=0, seed=0)
    result["poems"][0]["attn"][1][2][5][0] += 100
    assert problems_of(result) == ["poem 0 layer 1 head 2 row 5: sums to " +
                                   str(sum(result["poems"][0]["attn"][1][2][5]))]
    result["poems"][0]["attn"][0][0][3].append(0)
    assert len(problems_of(result)) == 2


def test_real_poems_come_whole_from_the_validation_split(small):
    _, _, tokenizer, _ = small
    corpus = small_corpus()
    poems = real_poems(corpus, tokenizer, 3, seed=1)
    val = corpus.tokenizer.decode(corpus.val.tolist())
    for poem in poems:
        assert data.format_example(poem["form"], poem["keywords"], poem["text"]) in val
    assert [p["text"] for p in real_poems(corpus, tokenizer, 3, seed=1)] == [p["text"] for p in poems]
    with pytest.raises(ValueError, match="fewer than 99"):
        real_poems(corpus, tokenizer, 99, seed=0)


def test_a_written_poem_is_what_minigpt_generate_prints(small, capsys):
    out, model, tokenizer, ckpt = small
    poem = export(model, tokenizer, ckpt, small_corpus(), n_written=1, n_real=0, seed=3)["poems"][0]
    assert poem["command"] == "minigpt generate --form 五言绝句 --keywords 月,江 --seed 3 --strict"
    code, printed, _ = run(capsys, "generate", "--checkpoint", str(out), *poem["command"].split()[2:])
    assert code == 0 and printed.strip() == poetry.format_poem(poem["text"]).strip()


def test_a_numpy_engine_checkpoint_exports_too(tmp_path):
    """A checkpoint of the numpy GPT loads into the torch GPT (same parameter names) and exports alike."""
    config = get_preset("tiny", corpus="poems", block_size=64, max_steps=2, eval_interval=2, eval_iters=1,
                        out_dir=str(tmp_path), threads=1, device="cpu", engine="numpy")
    train(config, corpus=small_corpus(), progress=False)
    model, tokenizer, ckpt = load_model(tmp_path)
    assert ckpt["engine"] == "numpy"
    result = export(model, tokenizer, ckpt, small_corpus(), n_written=1, n_real=1, seed=0)
    assert result["model"]["engine"] == "numpy" and problems_of(result) == []


# ---- the command --------------------------------------------------------------------------------

def test_minigpt_attention_writes_the_json_from_a_real_corpus_model(tmp_path, capsys):
    """The command end to end: a tiny model trained for 3 steps on the real poems, real validation poems
    with their titles."""
    config = get_preset("tiny", corpus="poems", block_size=64, max_steps=3, eval_interval=3, eval_iters=1,
                        out_dir=str(tmp_path / "run"), threads=1, device="cpu")
    train(config, progress=False)
    out = tmp_path / "site" / "attention.json"
    code, printed, err = run(capsys, "attention", str(tmp_path / "run"), str(out), "--poems", "1", "--real", "2")
    assert code == 0, err
    result = json.loads(out.read_text(encoding="utf-8"))
    assert printed.startswith(f"{out}: 3 poems, 2 layers x 4 heads, ") and printed.rstrip().endswith("KiB")
    assert result["model"]["name"] == "run" and result["model"]["step"] == 3
    assert [p["kind"] for p in result["poems"]] == ["model", "real", "real"]
    assert all(p["title"] and p["author"] for p in result["poems"][1:])
    assert problems_of(result) == []


def test_minigpt_attention_errors(small, capsys, tmp_path):
    out = str(small[0])
    code, _, err = run(capsys, "attention", out, str(tmp_path / "a.json"), "--poems", str(len(PROMPTS) + 1))
    assert code == 2 and "--poems can be at most" in err and len(err.strip().splitlines()) == 1
    ckpt = load_checkpoint(out)
    ckpt["train_config"]["corpus"] = "shakespeare"
    save_checkpoint(tmp_path / "ckpt.pt", {k: v for k, v in ckpt.items() if k not in ("format", "version", "path")})
    code, _, err = run(capsys, "attention", str(tmp_path), str(tmp_path / "a.json"))
    assert code == 2 and "needs a checkpoint trained on poems" in err
    assert not (tmp_path / "a.json").exists()


def test_help(capsys):
    code, out, _ = run(capsys, "attention", "--help")
    assert code == 0 and "usage: minigpt attention" in out and "--real" in out
