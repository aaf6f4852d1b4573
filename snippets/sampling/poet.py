"""Lesson 16's prompt for its small poem model (``minigpt.tiny_models.tiny_poet``, which the first script to ask trains in
about a minute): ``<bos> form <sep> keywords <sep>``, the prefix every sampler of the lesson starts from."""

import torch

from minigpt.data import format_prompt


def prompt(tokenizer, form="五言绝句", keywords="月,江"):
    """``<bos> form <sep> keywords <sep>`` as a (1, T) tensor of ids."""
    return torch.tensor([format_prompt(tokenizer, form, keywords)])
