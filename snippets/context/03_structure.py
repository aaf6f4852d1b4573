import numpy as np

from minigpt.data import shakespeare_corpus
from window_mlp import WindowMLP

tok = shakespeare_corpus().tokenizer
model = WindowMLP(tok.vocab_size, window=4, rng=np.random.default_rng(0))  # d = 16, H = 64
print(f"V={tok.vocab_size} window={model.window}")
print("name             shape     numbers")
for name, p in model.named_parameters():
    print(f"{name:<16} {str(p.shape):<9} {p.numel():7d}")
print(f"{len(model.parameters())} tensors, {sum(p.numel() for p in model.parameters()):,} numbers")
idx = np.array([tok.encode("the "), tok.encode("ROME")])  # (2, 4)
print(f"idx {idx.shape} -> logits {model(idx).shape}")
