import re

from minigpt.data import load_shakespeare

text = load_shakespeare()
n = int(len(text) * 0.9)
train_words, val_words = re.findall(r"[A-Za-z]+", text[:n]), re.findall(r"[A-Za-z]+", text[n:])
vocab = set(train_words)
unseen = [w for w in val_words if w not in vocab]
print(f"characters: {len(set(text))} distinct, 1 token per character")
print(f"words: {len(vocab):,} distinct in training; {len(unseen):,} of {len(val_words):,} validation words "
      f"({len(unseen) / len(val_words):.1%}) never seen, e.g. {', '.join(list(dict.fromkeys(unseen))[:5])}")
print("bytes: 256 ids, every text:", list("Ünï 床".encode("utf-8")))
