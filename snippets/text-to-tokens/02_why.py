import json
import re
from collections import Counter

from minigpt.data import data_dir, poem_corpus
from minigpt.manifest import poem_files
from minigpt.tokenizer import CharTokenizer

raw = [r for f in poem_files() for r in json.loads((data_dir() / f).read_bytes())]
raw_text = "".join(line for r in raw for line in r.get("paragraphs") or [])
han = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f，。？！；：、]")
odd = Counter(c for c in raw_text if not han.match(c))
print(f"raw text: {len(raw_text):,} characters, {len(set(raw_text)):,} distinct")
print(f"  {len(odd)} are neither Chinese characters nor ，。？！；：、, most often:",
      "".join(c for c, _ in odd.most_common(12)))

for name, tok in (("raw (traditional)", CharTokenizer.from_text(raw_text)),
                  ("cleaned (simplified)", poem_corpus().tokenizer)):
    try:
        print(f"vocabulary from the {name} text: 故乡 ->", tok.encode("故乡"))
    except ValueError as e:
        print(f"vocabulary from the {name} text: 故乡 -> ValueError: {e}")
