import numpy as np

from bigram import CountBigram, generate
from minigpt.data import poem_corpus, shakespeare_corpus

for corpus, start, n in ((shakespeare_corpus(), "T", 80), (poem_corpus(), "<bos>", 40)):
    tok, V = corpus.tokenizer, corpus.tokenizer.vocab_size
    first = tok.bos_id if start == "<bos>" else tok.encode(start)[0]
    rng = np.random.default_rng(0)
    uniform = [first] + rng.integers(0, V, size=n).tolist()  # every id 1/V
    model = CountBigram(corpus.train, V)
    counted = generate(model, first, n, np.random.default_rng(0), stop=tok.eos_id)
    print(f"{corpus.name}: {V - 4} characters + 4 special tokens = V {V}")
    for name, ids in (("uniform", uniform), ("bigram ", counted)):
        print(f"  {name}: {tok.decode(ids)!r}")
