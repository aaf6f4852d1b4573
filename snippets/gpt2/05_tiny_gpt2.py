import tempfile
from pathlib import Path

import numpy as np

from minigpt import cli
from minigpt.bpe import BPETokenizer
from minigpt.config import TrainConfig
from minigpt.data import Corpus, load_shakespeare
from minigpt.gpt2 import END_OF_TEXT, save_gpt2
from minigpt.train import train

text = load_shakespeare()[:100_000]
tok = BPETokenizer.train(text[:30_000], vocab_size=512)
tok = BPETokenizer(tok.merges, extra={512: END_OF_TEXT.encode()})  # GPT-2's one special token, id 512
ids = np.array(tok.encode(text))
n = len(ids) * 9 // 10
with tempfile.TemporaryDirectory() as runs:
    config = TrainConfig(n_layer=2, n_head=4, n_embd=32, block_size=32, batch_size=8, max_steps=100, lr=3e-3,
                         warmup_steps=10, eval_interval=100, eval_iters=4, seed=0, dtype="float64", threads=1,
                         out_dir=runs)
    result = train(config, corpus=Corpus(ids[:n], ids[n:], tok, "shakespeare"), plot=False, progress=False)
print(f"trained 100 steps on BPE Shakespeare (V {tok.vocab_size}): val loss {result.val_loss:.2f} nats per token")

with tempfile.TemporaryDirectory() as tmp:  # removed after the run
    folder = Path(tmp) / "tiny-gpt2"
    save_gpt2(result.model.float(), folder, tok)
    for f in sorted(folder.iterdir()):
        print(f"  {f.name:<17} {f.stat().st_size / 1024:6.1f} KiB")
    argv = ["generate", "ROMEO:", "--checkpoint", str(folder), "--max-new-tokens", "40", "--seed", "0"]
    print("$ minigpt", " ".join(a if a != str(folder) else "tiny-gpt2" for a in argv))
    cli.main(argv)
