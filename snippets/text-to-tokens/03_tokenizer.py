from minigpt.data import poem_corpus, shakespeare_corpus

for corpus in (poem_corpus(), shakespeare_corpus()):
    tok = corpus.tokenizer
    print(f"{corpus.name}: vocab_size {tok.vocab_size:,} = 4 special tokens + {len(tok.chars):,} characters")
    print("  ids 0..9:", " ".join(repr(t) for t in tok.itos[:10]))
    text = "明月" if corpus.name == "poems" else "To be"
    ids = tok.encode(text)
    print(f"  encode({text!r}) = {ids}, decode back: {tok.decode(ids)!r}")
