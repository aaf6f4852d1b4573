from itertools import islice

from minigpt.bpe import BPETokenizer
from minigpt.data import load_shakespeare

text = load_shakespeare()
n = int(len(text) * 0.9)
train_text, val_text = text[:n], text[n:]
merges = BPETokenizer.train(train_text, vocab_size=768).merges  # in the order learned
print(f"validation text: {len(val_text):,} characters, tokens per character:")
for vocab_size in (256, 320, 512, 768):
    tok = BPETokenizer(dict(islice(merges.items(), vocab_size - 256)))  # the first merges = a smaller training
    ids = tok.encode(val_text)
    print(f"  V {vocab_size:5}: {len(ids) / len(val_text):.3f} ({len(ids):,} tokens)")
