import numpy as np

from minigpt.config import GPTConfig
from minigpt.data import poem_corpus
from minigpt.gpt import GPT

tok = poem_corpus().tokenizer
line = "床前明月光疑是地上霜"
order = [4, 2, 7, 0, 5, 1, 8, 3, 6, 9]  # a permutation; the last character stays last
shuffled = "".join(line[i] for i in order)
print("line    :", line)
print("shuffled:", shuffled)


def next_char_logits(model, text):
    logits, _ = model(np.array([tok.encode(text)]))  # (1, T, V)
    return logits.data[0, -1]  # (V,), after the last character


for n_layer in (1, 2):
    model = GPT(GPTConfig(vocab_size=tok.vocab_size, n_layer=n_layer), seed=0)
    rng = np.random.default_rng(1)
    # weights larger than the init: attention weights far from uniform
    state = model.state_dict()
    model.load_state_dict({k: rng.normal(0.0, 0.3, a.shape) for k, a in state.items()})
    for label in ("with wpe", "wpe = 0"):
        if label == "wpe = 0":
            model.wpe.weight.data[:] = 0.0
        a, b = next_char_logits(model, line), next_char_logits(model, shuffled)
        d = np.abs(a - b).max()  # float32: rounding leaves up to ~1e-6
        print(f"n_layer={n_layer}, {label:<8}: max |logits(line) - logits(shuffled)|:"
              f" {f'{d:.3g}' if d > 1e-4 else '< 1e-4'}, same: {d < 1e-4}")
