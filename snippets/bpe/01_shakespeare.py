from minigpt.bpe import BPETokenizer
from minigpt.data import load_shakespeare

text = load_shakespeare()
train_text = text[: int(len(text) * 0.9)]  # the training part (shakespeare_corpus's split)
tok = BPETokenizer.train(train_text, vocab_size=512)
learned = [tok.vocab[i].decode("utf-8") for i in range(256, tok.vocab_size)]
print(f"{len(learned)} merges learned from {len(train_text):,} characters")
print("first 12:", " | ".join(repr(t) for t in learned[:12]))
print("last 6  :", " | ".join(repr(t) for t in learned[-6:]))
print("longest :", repr(max(learned, key=len)))
line = "First Citizen:\nBefore we proceed any further, hear me speak."
ids = tok.encode(line)
print(f"{len(line)} characters -> {len(ids)} tokens:", "|".join(tok.decode([i]) for i in ids).replace("\n", "\\n"))
