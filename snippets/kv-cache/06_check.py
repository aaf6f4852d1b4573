import tempfile

import numpy as np
import torch

import minigpt.gpt
from minigpt.convert import to_numpy
from minigpt.data import shakespeare_corpus
from minigpt.presets import get_preset
from minigpt.train import train

corpus = shakespeare_corpus()
tok = corpus.tokenizer
with tempfile.TemporaryDirectory() as out:
    # tiny (2 layers, 64 wide, context 32), 100 steps on Shakespeare: a model whose choices vary
    config = get_preset("tiny", max_steps=100, lr=1e-2, min_lr=1e-3, warmup_steps=10, eval_interval=100,
                        eval_iters=2, dtype="float64", threads=1, out_dir=out)
    torch_gpt = train(config, corpus=corpus, progress=False, plot=False).model.eval()
numpy_gpt = minigpt.gpt.GPT(torch_gpt.config)
numpy_gpt.load_state_dict(to_numpy(torch_gpt.state_dict()))  # the same weights on our engine
prompt = tok.encode("ROMEO:")  # 6 tokens; + 26 new = 32 = block_size


def tokens(model, use_cache, temperature, seed=1):
    out = model.generate(np.array([prompt]), 26, temperature=temperature, top_k=20, use_cache=use_cache,
                         rng=np.random.default_rng(seed))
    return np.asarray(out)[0]  # (32,)


for name, model in (("numpy", numpy_gpt), ("torch", torch_gpt)):
    for how, temperature in (("greedy", 0.0), ("sampled, seed 1", 1.0)):
        a, b = tokens(model, True, temperature), tokens(model, False, temperature)
        print(f"{name} {how:15}: identical with and without the cache: {np.array_equal(a, b)}")
        if name == "numpy":
            print(f"  {tok.decode(a)!r}")
store = minigpt.gpt.cached_keys_values
minigpt.gpt.cached_keys_values = lambda kv_cache, k, v, start: store(kv_cache, k, v, 0)  # never advances
a, b = tokens(numpy_gpt, True, 1.0), tokens(numpy_gpt, False, 1.0)
print(f"control, a cache that writes every token at position 0: identical: {np.array_equal(a, b)}")
print(f"  {tok.decode(a)!r}")
