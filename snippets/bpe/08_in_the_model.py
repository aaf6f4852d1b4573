import argparse
import math
import tempfile

import numpy as np

from minigpt.bpe import BPETokenizer
from minigpt.config import TrainConfig
from minigpt.data import Corpus, load_shakespeare
from minigpt.tokenizer import CharTokenizer
from minigpt.train import train

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=10)
parser.add_argument("--seeds", type=int, nargs="+", default=[0])
parser.add_argument("--vocab", type=int, default=512)
parser.add_argument("--eval-iters", type=int, default=4)
args = parser.parse_args()

text = load_shakespeare()
n = int(len(text) * 0.9)  # the split of shakespeare_corpus: the first 90% trains
tokenizers = {"characters": CharTokenizer.from_text(text),
              f"BPE {args.vocab}": BPETokenizer.train(text[:n], args.vocab)}
for name, tok in tokenizers.items():
    train_ids, val_ids = np.array(tok.encode(text[:n])), np.array(tok.encode(text[n:]))
    per_char = len(val_ids) / len(text[n:])  # tokens per character of the validation text
    bits = []
    for seed in args.seeds:
        out = tempfile.TemporaryDirectory()  # the checkpoint and log of this run, removed after it
        config = TrainConfig(n_layer=2, n_head=4, n_embd=64, block_size=64, batch_size=16, max_steps=args.steps,
                             lr=3e-3, warmup_steps=args.steps // 10, eval_interval=args.steps,
                             eval_iters=args.eval_iters, seed=seed, dtype="float64", threads=1,
                             out_dir=out.name)
        result = train(config, corpus=Corpus(train_ids, val_ids, tok, name), plot=False)
        out.cleanup()
        bits.append(result.val_loss * per_char / math.log(2))  # nats per token -> bits per character
    print(f"{name:>12}: V {tok.vocab_size:4}, {per_char:.3f} tokens per character, "
          f"val {' '.join(f'{b:.3f}' for b in bits)} bits per character")
