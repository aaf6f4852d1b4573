import json
import tempfile
from itertools import islice
from pathlib import Path

from minigpt.bpe import BPETokenizer, bytes_to_unicode
from minigpt.manifest import SHAKESPEARE_FILE, data_dir, poem_files

shakespeare = (data_dir() / SHAKESPEARE_FILE).read_text(encoding="utf-8")
tok = BPETokenizer.train(shakespeare[:200_000], vocab_size=512)
small = BPETokenizer.train(shakespeare[:200_000], vocab_size=384)
print("training to V 384 learns the first 128 merges of V 512:", small.merges == dict(islice(tok.merges.items(), 128)))

HEAD = 20_000  # characters from the start of each file (tests/test_bpe.py round-trips the whole files)
files = [*poem_files(), SHAKESPEARE_FILE]
same = sum(tok.decode(tok.encode(t)) == t for t in ((data_dir() / f).read_text(encoding="utf-8")[:HEAD] for f in files))
print(f"decode(encode(text)) == text for the first {HEAD:,} characters of {same} of {len(files)} corpus files")

# our merges written as GPT-2's two files (GPT-2's numbering of the bytes), then read back
table = bytes_to_unicode()
word = {i: "".join(table[b] for b in tok.vocab[i]) for i in tok.vocab}  # id -> the token as GPT-2 writes it
gpt2_id = {word[i]: n for n, i in enumerate(sorted(range(256), key=lambda b: ord(table[b])))}
gpt2_id.update({word[i]: i for i in range(256, tok.vocab_size)})
folder = Path(tempfile.mkdtemp())
(folder / "vocab.json").write_text(json.dumps(gpt2_id), encoding="utf-8")
(folder / "merges.txt").write_text("#version: 0.2\n" + "".join(f"{word[a]} {word[b]}\n" for a, b in tok.merges),
                                   encoding="utf-8")
back = BPETokenizer.from_gpt2_files(folder / "vocab.json", folder / "merges.txt")
lines = shakespeare.splitlines()[:2000]
same = sum([back.decode([i]) for i in back.encode(s)] == [tok.decode([i]) for i in tok.encode(s)] for s in lines)
print(f"read back from vocab.json and merges.txt: the same tokens for {same} of {len(lines)} lines; "
      f"byte 'A' is id {back.byte_ids[65]} there, {tok.byte_ids[65]} here")

poem = "床前明月光，疑是地上霜。"
ids = tok.encode(poem)
print(f"control, decoding {len(ids)} tokens one at a time:", "".join(tok.decode([i]) for i in ids) == poem)
