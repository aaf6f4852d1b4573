import json

import numpy as np

from minigpt.data import data_dir, load_poems, poem_corpus
from minigpt.manifest import poem_files

raw = json.loads((data_dir() / poem_files()[8]).read_bytes())
record = next(r for r in raw if r["title"] == "靜夜思")
poem = next(p for p in load_poems() if p.title == "静夜思" and p.author == "李白")
print("raw    :", "".join(record["paragraphs"]))
print("cleaned:", poem.text, poem.form)

corpus = poem_corpus()
tok = corpus.tokenizer
ids = np.array(tok.encode(poem.text))  # (24,)
stream = corpus.train  # (N,)
at = next(i for i in np.flatnonzero(stream == ids[0]) if np.array_equal(stream[i:i + len(ids)], ids))
start = at - np.flatnonzero(stream[:at][::-1] == tok.bos_id)[0] - 1
end = at + np.flatnonzero(stream[at:] == tok.eos_id)[0] + 1
print("tokens :", tok.decode(stream[start:end]))
print("ids    :", stream[start:end].tolist())
print(f"{end - start} tokens of {len(stream):,} in the training stream, from position {start:,}")
