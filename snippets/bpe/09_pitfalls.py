import tempfile
from pathlib import Path

from minigpt.bpe import BPETokenizer
from minigpt.data import load_shakespeare

text = load_shakespeare()[:100_000]
tok = BPETokenizer.train(text, vocab_size=300)
folder = Path(tempfile.mkdtemp())
(folder / "vocab.json").write_text('{"a": 0, "b": 1}', encoding="utf-8")
(folder / "merges.txt").write_text("#version: 0.2\na b\n", encoding="utf-8")
for attempt in (lambda: BPETokenizer.train(text, vocab_size=100),
                lambda: tok.encode(b"To be"),
                lambda: tok.decode([300]),
                lambda: BPETokenizer.from_gpt2_files(folder / "vocab.json", folder / "merges.txt")):
    try:
        attempt()
    except (ValueError, TypeError) as e:
        print(f"{type(e).__name__}: {e}".replace(str(folder), "<folder>"))

ids = tok.encode("床")
print(f"'床' is {len(ids)} tokens; one of them alone decodes to {tok.decode(ids[:1])!r}, "
      f"all three to {tok.decode(ids)!r}")
whole = BPETokenizer.train(text, vocab_size=300, pattern=None)  # no pre-split: merges cross words
print("without the pre-split, tokens that join the end of a word to the space after it:",
      [t for t in (whole.decode([i]) for i in range(256, 300)) if " " in t[1:]][:6])
