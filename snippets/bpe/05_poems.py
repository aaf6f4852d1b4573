from itertools import islice

from minigpt.bpe import BPETokenizer
from minigpt.data import load_poems

text = "".join(p.text for p in load_poems() if p.form is not None)  # the poems of the four forms, one string
chars = sorted(set(text))
train_text, test_text = text[:10_000], text[10_000:50_000]
print(f"{len(chars):,} distinct characters; UTF-8 bytes per character: {len(text.encode('utf-8')) / len(text):.2f}")
merges = BPETokenizer.train(train_text, vocab_size=768).merges
for vocab_size in (256, 512, 768):
    tok = BPETokenizer(dict(islice(merges.items(), vocab_size - 256)))
    print(f"byte BPE, V {vocab_size:5}: {len(tok.encode(test_text)) / len(test_text):.2f} tokens per character")
print("one token per character takes a merge per character at least: "
      f"V >= 256 + {len(chars):,} = {256 + len(chars):,}, "
      f"more than the {len(chars):,} characters themselves")
