import csv
import json
from collections import Counter
from pathlib import Path

import numpy as np
import torch

from minigpt import poetry
from minigpt.data import poem_corpus
from minigpt.evaluate import sample_prompts
from minigpt.generate import decode_rows
from minigpt.tiny_models import tiny_poet

root = Path(__file__).resolve().parents[2]

model, tok, _ = tiny_poet()
prompts, _ = sample_prompts(poem_corpus(), 20)  # 5 validation poems of each form: their form and keywords


def first_problem(text, form):
    """The first thing a reader would see is wrong, in the order minigpt.poetry checks it."""
    n_lines, n_chars = poetry.FORMS[form]
    lines = poetry.split_lines(text)
    if len(lines) != n_lines:
        return "wrong number of lines"
    if any(len(line) != n_chars + 1 for line in lines):
        return "a line of the wrong length"
    if not poetry.check_form(text, form).ok:
        return "a mark inside a line (、)"
    return "ok" if poetry.check_rhyme(text, form).ok else "no rhyme"


ORDER = ("wrong number of lines", "a line of the wrong length", "a mark inside a line (、)", "no rhyme", "ok")
found, first = Counter(), {}
for i, (form, keywords, ids) in enumerate(prompts):  # sample i: seed i, temperature 0.8, no rules
    out = model.generate(torch.tensor([ids]), 96 - len(ids), temperature=0.8, stop=tok.eos_id,
                         rng=np.random.default_rng(i))
    text = decode_rows(tok, out[:, len(ids):].tolist())[0]
    problem = first_problem(text, form)
    first.setdefault(problem, f"{problem} ({form}): {text}")
    found[problem] += 1
print("\n".join(first[k] for k in ORDER if k in first))  # the first poem with each problem
print("tiny model, 20 free poems: " + ", ".join(f"{k} {found[k]}" for k in ORDER if k in found))

reading = root / "benchmarks" / "readings" / "2026-12-06"  # poems-cpu, --strict, scored blind
items = json.loads((reading / "key.json").read_text(encoding="utf-8"))["items"]
with open(reading / "scores.csv", encoding="utf-8") as f:
    scores = {int(row["number"]): row for row in csv.DictReader(f)}  # poem number (1-based) -> its scores
written = [(int(scores[n]["sense"]), int(scores[n]["craft"]), item) for n, item in enumerate(items, 1)
           if item["source"] == "model"]
for sense, craft, item in sorted(written, key=lambda w: w[:2])[:2]:
    ok = poetry.check_poem(item["text"], item["form"], item["keywords"]).form.ok
    print(f"poems-cpu --strict, sense {sense}/5, craft {craft}/5, form ok {ok}: {item['text']}")
