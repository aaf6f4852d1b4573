import numpy as np

from minigpt.data import load_poems, poem_corpus

corpus = poem_corpus()
tok = corpus.tokenizer
poems = [p for p in load_poems() if p.form is not None]
split = {}
for name, stream in (("train", corpus.train), ("val", corpus.val)):
    examples = np.split(stream, np.flatnonzero(stream == tok.bos_id)[1:])  # poems x (length,)
    split[name] = {tok.decode(e).split("<sep>")[2].removesuffix("<eos>") for e in examples}
    whole = all(e[0] == tok.bos_id and e[-1] == tok.eos_id for e in examples)
    print(f"{name}: {len(examples):,} poems, each from <bos> to <eos>: {whole}")
print("round trip decode(encode(poem)) for all", f"{len(poems):,}:",
      all(tok.decode(tok.encode(p.text)) == p.text for p in poems))
print("every poem in exactly one split:", split["train"] | split["val"] == {p.text for p in poems}
      and not split["train"] & split["val"])
print("<pad> in the streams:", int((corpus.train == tok.pad_id).sum() + (corpus.val == tok.pad_id).sum()))

stream = np.concatenate([corpus.train, corpus.val])  # (N_train + N_val,)
cut = int(len(stream) * 0.95)
print("cut at 95% of the tokens, the validation part starts with <bos>:", stream[cut] == tok.bos_id)
print("  ...", tok.decode(stream[cut - 8:cut]), "|", tok.decode(stream[cut:cut + 8]), "...")
