import math

import numpy as np
from poems_cpu import head_shares, load_maps

from minigpt.attention_maps import attention_weights
from minigpt.data import poem_corpus
from minigpt.evaluate import validation_loss
from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset
from minigpt.tiny_models import tiny_poet

corpus = poem_corpus()
tok = corpus.tokenizer
model, poems = load_maps()
poem = next(p for p in poems if p.get("title") == "送李给事")
ids = [tok.itos.index(t) if t.startswith("<") else tok.stoi[t] for t in poem["tokens"]]
untrained = GPT(get_preset("poems-cpu").gpt_config(tok.vocab_size), seed=0).eval()  # same shape, not trained
att = attention_weights(untrained, ids[:-1])  # (L, H, T, T), as minigpt attention exports them
trained, control = head_shares(poem["tokens"], poem["att"]), head_shares(poem["tokens"], att)
print(f"《{poem['title']}》, poems-cpu against an untrained model of its shape (seed 0):")
for (l, h), k, what in (((2, 0), 5, "largest weight in a row"), ((3, 3), 1, "weight on two characters before"),
                        ((3, 1), 4, "weight on the earlier line ends"), ((0, 0), 3, "weight on the form")):
    print(f"  layer {l + 1} head {h + 1}, {what:<32}{np.mean(trained[l, h][k]):.2f} against "
          f"{np.mean(control[l, h][k]):.2f}")
tiny, _, _ = tiny_poet()
first = type(corpus)(**{**vars(corpus), "val": corpus.val[:20_000]})  # the validation split's first 20,000 tokens
shuffled = type(corpus)(**{**vars(corpus), "val": np.random.default_rng(0).permutation(first.val)})
print("perplexity on the validation split's first 20,000 tokens:")
for name, m, c in (("tiny poem model", tiny, first), ("the same, tokens shuffled", tiny, shuffled),
                   ("untrained, same shape", GPT(tiny.config, seed=0).eval(), first)):
    print(f"  {name:<26}{math.exp(validation_loss(m, c)[0]):>8,.1f}")
