"""minigpt.gpt2 against Hugging Face's own GPT-2 (``transformers``, a test-only dependency): a tiny
``GPT2LMHeadModel`` of GPT-2's layout with random weights, saved as safetensors, loaded into our twin, must give
the same logits and loss in float32; a loader with a transpose or the c_attn split wrong must not. Our BPE read
from a vocab.json and merges.txt must encode like ``transformers.GPT2Tokenizer`` reading the same files; and
``minigpt generate`` writes from such a folder. The real GPT-2 (548 MB) is never downloaded here."""

from __future__ import annotations

import json

import pytest
import torch

from minigpt import bpe, gpt2
from minigpt.checkpoint import CheckpointError
from minigpt.config import GPTConfig
from minigpt.gpt_torch import GPT

from cli_run import run

transformers = pytest.importorskip("transformers")  # pyproject's test extra pins it
transformers.logging.set_verbosity_error()

TEXT = ("It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want "
        "of a wife. However little known the feelings or views of such a man may be on his first entering a "
        "neighbourhood, this truth is so well fixed in the minds of the surrounding families, that he is considered "
        "the rightful property of some one or other of their daughters. ") * 3
STRINGS = ["It is a truth universally acknowledged", "  two  spaces,\tand a tab\n\nnew lines", "don't we'll I'm",
           "in 2024, 3.14 was still pi!", "床前明月光，疑是地上霜。", "Ünïcödé and emoji 🌙", ""]


@pytest.fixture(scope="module")
def tokenizer() -> bpe.BPETokenizer:
    merges = bpe.train(TEXT, 320)
    return bpe.BPETokenizer(merges, extra={320: gpt2.END_OF_TEXT.encode()})


@pytest.fixture(scope="module")
def hf_folder(tmp_path_factory, tokenizer):
    """A GPT2LMHeadModel of GPT-2's layout, 2 layers x 32 wide, random weights far from the initial 0.02 (so a
    misplaced weight moves the logits a lot), saved by transformers itself, with our tokenizer's files."""
    folder = tmp_path_factory.mktemp("hf")
    config = transformers.GPT2Config(vocab_size=tokenizer.vocab_size, n_positions=64, n_embd=32, n_layer=2, n_head=4,
                                     bos_token_id=320, eos_token_id=320)
    torch.manual_seed(0)
    model = transformers.GPT2LMHeadModel(config).eval()
    with torch.no_grad():
        for name, p in model.named_parameters():
            p.copy_(1.0 + 0.1 * torch.randn_like(p) if ".ln_" in name or "ln_f" in name else 0.3 * torch.randn_like(p))
    model.save_pretrained(folder, safe_serialization=True)
    gpt2.save_tokenizer(tokenizer, folder)
    return folder, model


@pytest.fixture(scope="module")
def batch():
    gen = torch.Generator().manual_seed(1)
    idx = torch.randint(0, 321, (3, 40), generator=gen)
    return idx, torch.randint(0, 321, (3, 40), generator=gen)


def logits_and_loss(model, idx, targets):
    with torch.no_grad():
        if isinstance(model, GPT):
            return model(idx, targets)
        out = model(idx, labels=None)
        loss = torch.nn.functional.cross_entropy(out.logits.flatten(0, 1), targets.flatten())
        return out.logits, loss


def test_the_file_has_gpt2s_layout(hf_folder):
    from safetensors.torch import load_file

    names = set(load_file(hf_folder[0] / "model.safetensors"))
    assert "transformer.h.0.attn.c_attn.weight" in names and "transformer.wte.weight" in names
    assert load_file(hf_folder[0] / "model.safetensors")["transformer.h.1.mlp.c_fc.weight"].shape == (32, 128)  # (in, out)


def test_our_twin_gives_the_references_logits_and_loss(hf_folder, batch):
    folder, reference = hf_folder
    ours = gpt2.load_gpt2(folder)
    assert ours.config == GPTConfig(vocab_size=321, block_size=64, n_layer=2, n_head=4, n_embd=32)
    (a, loss_a), (b, loss_b) = logits_and_loss(ours, *batch), logits_and_loss(reference, *batch)
    assert a.dtype == torch.float32 and b.abs().max() > 1  # logits far from zero: the comparison means something
    torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-5)  # float32 tolerance
    torch.testing.assert_close(loss_a, loss_b, rtol=1e-6, atol=1e-6)


def wrong_loader(monkeypatch, mistake):
    """gpt2.from_hf with one classic mistake."""
    real = gpt2.from_hf

    def from_hf(name, tensor):
        rest = name.removeprefix("transformer.")
        if mistake == "c_proj not transposed" and rest.endswith("attn.c_proj.weight"):  # square: the shape fits
            return real(name, tensor.t())
        if rest.endswith("attn.c_attn.weight"):
            out = real(name, tensor)
            keys = list(out)  # c_q, c_k, c_v
            if mistake == "q and k swapped":
                out[keys[0]], out[keys[1]] = out[keys[1]], out[keys[0]]
            elif mistake == "c_attn split, not transposed":
                out = dict(zip(keys, tensor.chunk(3, dim=1)))  # three (C, C) blocks, each still (in, out)
            elif mistake == "c_attn split by rows":
                out = dict(zip(keys, tensor.chunk(3, dim=0)))  # (C, 3C) cut the wrong way: (11, 96), ...
            return out
        return real(name, tensor)

    monkeypatch.setattr(gpt2, "from_hf", from_hf)


@pytest.mark.parametrize("mistake", ["c_proj not transposed", "q and k swapped", "c_attn split, not transposed"])
def test_control_a_wrong_transpose_or_split_is_caught(hf_folder, batch, monkeypatch, mistake):
    folder, reference = hf_folder
    wrong_loader(monkeypatch, mistake)
    ours = gpt2.load_gpt2(folder)  # the shapes fit: it loads without a word
    a, b = logits_and_loss(ours, *batch)[0], logits_and_loss(reference, *batch)[0]
    assert not torch.allclose(a, b, rtol=1e-5, atol=1e-5) and (a - b).abs().max() > 0.1


def test_a_split_along_the_wrong_axis_does_not_load(hf_folder, monkeypatch):
    wrong_loader(monkeypatch, "c_attn split by rows")
    with pytest.raises(CheckpointError, match=r"attn.c_q.weight has shape \(11, 96\), the model \(32, 32\)"):
        gpt2.load_gpt2(hf_folder[0])


def test_our_writer_is_read_by_transformers(tmp_path, batch):
    ours = GPT(GPTConfig(vocab_size=321, block_size=64, n_layer=2, n_head=4, n_embd=32), seed=3)
    gpt2.save_gpt2(ours, tmp_path)
    reference = transformers.GPT2LMHeadModel.from_pretrained(tmp_path).eval()
    torch.testing.assert_close(logits_and_loss(ours, *batch)[0], logits_and_loss(reference, *batch)[0],
                               rtol=1e-5, atol=1e-5)
    back = gpt2.load_gpt2(tmp_path)
    assert all(torch.equal(v, back.state_dict()[k]) for k, v in ours.state_dict().items())


def test_our_bpe_encodes_like_the_reference_tokenizer(hf_folder, tokenizer):
    folder = hf_folder[0]
    ours = gpt2.load_tokenizer(folder)
    reference = transformers.GPT2Tokenizer.from_pretrained(folder)  # reads the folder's vocab.json and merges.txt
    assert len(ours.merges) == 64 and ours.vocab_size == 321
    for text in STRINGS:
        ids = reference.encode(text)
        assert ours.encode(text) == ids == tokenizer.encode(text), text
        assert ours.decode(ids) == reference.decode(ids) == text
    assert any(i >= 256 for i in ours.encode(STRINGS[0]))  # the merges were used, not the bytes alone
    assert gpt2.end_of_text(ours) == 320 == reference.convert_tokens_to_ids(gpt2.END_OF_TEXT)


def test_bad_folders_and_configs_are_one_clear_error(tmp_path, hf_folder):
    with pytest.raises(CheckpointError, match="has no config.json and no model.safetensors"):
        gpt2.load_gpt2(tmp_path)
    with pytest.raises(CheckpointError, match="no folder"):
        gpt2.load_gpt2(tmp_path / "nowhere")
    with pytest.raises(CheckpointError, match="has no vocab.json and no merges.txt"):
        gpt2.load_tokenizer(tmp_path)
    config = json.loads((hf_folder[0] / "config.json").read_text())
    for key, value, needle in [("activation_function", "relu", "tanh GELU"), ("n_inner", 64, "4 \\* n_embd"),
                               ("layer_norm_epsilon", 1e-6, "1e-5"), ("model_type", "llama", "not gpt2"),
                               ("n_head", 5, "not divisible by n_head=5")]:
        with pytest.raises(CheckpointError, match=needle):
            gpt2.gpt_config({**config, key: value})
    assert gpt2.gpt_config(config).n_embd == 32  # control: the file's own config is fine
    (tmp_path / "config.json").write_text(json.dumps(config))
    (tmp_path / "model.safetensors").write_bytes(b"not safetensors")
    with pytest.raises(CheckpointError, match="is damaged or not safetensors"):
        gpt2.load_gpt2(tmp_path)


def test_minigpt_generate_writes_from_a_gpt2_folder(hf_folder, capsys):
    folder = str(hf_folder[0])
    code, out, err = run(capsys, "generate", "It is a truth", "--checkpoint", folder, "--max-new-tokens", "12",
                         "--seed", "0")
    assert code == 0, err
    assert out.startswith("It is a truth") and len(out) > len("It is a truth\n")
    again = run(capsys, "generate", "It is a truth", "--checkpoint", folder, "--max-new-tokens", "12", "--seed", "0",
                "--no-cache")[1]
    assert again == out  # the KV cache changes nothing
    assert run(capsys, "generate", "--checkpoint", folder, "--max-new-tokens", "5", "--seed", "1")[0] == 0  # from <|endoftext|>
    code, out, err = run(capsys, "generate", "--checkpoint", folder, "--form", "五绝", "--keywords", "月")
    assert code == 2 and err.count("\n") == 1 and "--form and --keywords need a poems checkpoint" in err, err


def test_generate_names_what_is_missing(tmp_path, capsys, hf_folder):
    (tmp_path / "config.json").write_text((hf_folder[0] / "config.json").read_text())
    code, out, err = run(capsys, "generate", "Hello", "--checkpoint", str(tmp_path))
    assert code == 1 and err.count("\n") == 1 and "has no model.safetensors" in err, err
