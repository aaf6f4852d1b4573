"""minigpt: a GPT built from an empty file, on a numpy engine and on PyTorch."""

__version__ = "0.1.0"
