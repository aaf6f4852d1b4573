"""Presets: valid TrainConfigs with the shapes the course promises."""

from __future__ import annotations

import pytest

from minigpt import poetry
from minigpt.data import format_prompt
from minigpt.presets import PRESETS, get_preset
from minigpt.tokenizer import CharTokenizer
from minigpt.train import TrainConfig


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_is_a_valid_config(name):
    config = get_preset(name)
    assert isinstance(config, TrainConfig)
    assert config.gpt_config(vocab_size=100).block_size == config.block_size
    assert config.out_dir == f"runs/{name}"
    assert TrainConfig.from_dict(config.to_dict()) == config


def test_get_preset_copies_and_overrides():
    config = get_preset("tiny", max_steps=5, lr=1e-2)
    assert (config.max_steps, config.lr) == (5, 1e-2)
    assert PRESETS["tiny"].max_steps != 5  # the preset itself is untouched
    with pytest.raises(ValueError, match="known presets: shakespeare-cpu, poems-cpu, poems-large, tiny"):
        get_preset("huge")
    with pytest.raises(ValueError, match="batch_size"):
        get_preset("tiny", batch_size=0)
    with pytest.raises(TypeError):
        get_preset("tiny", no_such_field=1)


def test_shakespeare_cpu_is_nanogpts_laptop_run_shallower_and_longer():
    c = get_preset("shakespeare-cpu")
    # nanoGPT's heads, width, context, batch and no dropout; 2 layers for 2600 steps instead of 4 for 2000
    assert (c.corpus, c.n_head, c.n_embd, c.block_size, c.batch_size, c.dropout) == ("shakespeare", 4, 128, 64, 12, 0.0)
    assert (c.n_layer, c.max_steps) == (2, 2600)


def test_poems_cpu_context_holds_a_conditioned_qilv():
    c = get_preset("poems-cpu")
    poem = "风急天高猿啸哀，渚清沙白鸟飞回。无边落木萧萧下，不尽长江滚滚来。万里悲秋常作客，百年多病独登台。艰难苦恨繁霜鬓，潦倒新停浊酒杯。"
    assert poetry.check_form(poem, "七言律诗").ok
    tok = CharTokenizer(set(poem + "".join(poetry.FORMS) + "、"))
    prefix = format_prompt(tok, "七言律诗", ["长江", "登台", "秋"])  # the longest prefix: three keywords
    assert len(prefix) + len(poem) + 1 <= c.block_size  # + <eos>
    assert c.corpus == "poems"


def test_tiny_preset_matches_the_default_gpt_config():
    from minigpt.config import GPTConfig

    c = get_preset("tiny")
    t = GPTConfig()
    assert (c.n_layer, c.n_head, c.n_embd, c.block_size) == (t.n_layer, t.n_head, t.n_embd, t.block_size)
    assert c.max_steps * c.batch_size * c.block_size < 100_000  # seconds, not minutes
