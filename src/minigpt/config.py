"""The one configuration both GPTs (numpy and PyTorch) are built from."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class GPTConfig:
    vocab_size: int = 64  # number of distinct tokens (characters plus special tokens)
    block_size: int = 32  # longest context the model sees, in tokens
    n_layer: int = 2  # number of Transformer blocks stacked on top of each other
    n_head: int = 4  # attention heads per block; n_embd is split evenly among them
    n_embd: int = 64  # width of every token's vector (the residual stream)
    dropout: float = 0.0  # dropout probability during training; 0 turns it off
    bias: bool = True  # whether Linear and LayerNorm layers carry a bias

    def __post_init__(self) -> None:
        for name in ("vocab_size", "block_size", "n_layer", "n_head", "n_embd"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"GPTConfig.{name} must be a positive integer, got {value!r}")
        if self.n_embd % self.n_head != 0:
            raise ValueError(
                f"n_embd={self.n_embd} is not divisible by n_head={self.n_head}: "
                f"each head needs an equal share of the width"
            )
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"GPTConfig.dropout must be in [0, 1), got {self.dropout!r}")

    @property
    def head_size(self) -> int:
        """Width of one head: n_embd // n_head."""
        return self.n_embd // self.n_head

    @classmethod
    def tiny(cls, vocab_size: int = 64, **overrides) -> "GPTConfig":
        """The size the lessons train with batch 8: 2 layers, 4 heads, 64 wide, context 32."""
        fields = dict(vocab_size=vocab_size, block_size=32, n_layer=2, n_head=4, n_embd=64)
        fields.update(overrides)
        return cls(**fields)

    def to_dict(self) -> dict:
        return asdict(self)
