"""benchmarks/blind.py: real poems come from the validation split, and the scores become the table."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from minigpt import poetry
from minigpt.data import Corpus, format_prompt
from minigpt.tokenizer import CharTokenizer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import blind  # noqa: E402

POEMS = {"五言绝句": "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
         "七言绝句": "朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。"}


def test_real_poems_are_drawn_from_the_validation_split():
    tok = CharTokenizer(set("".join(POEMS.values())) | set("".join(poetry.FORMS)) | set("，。、"))
    stream = lambda poems: np.array([t for form, text in poems for t in  # noqa: E731
                                     format_prompt(tok, form, ["白"]) + tok.encode(text) + [tok.eos_id]])
    corpus = Corpus(stream([("五言绝句", POEMS["五言绝句"])]), stream(POEMS.items()), tok, "poems")
    assert sorted(blind.real_poems(corpus, 5, seed=0)) == sorted(POEMS.items())  # both, whole, and no more
    assert blind.real_poems(corpus, 0, seed=0) == []


def test_scores_become_the_table(tmp_path, capsys):
    items = [{"source": "real"}, {"source": "model"}, {"source": "model"}]
    (tmp_path / "key.json").write_text(json.dumps({"how": {}, "items": items}))
    (tmp_path / "scores.csv").write_text("number,sense,craft,accepted,machine\n1,5,4,yes,no\n2,2,1,no,yes\n"
                                         "3,4,3,yes,no\n")
    blind.main(["score", str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "| real poems | 1 | 5.00 | 4.00 | 1 / 1 | 0 / 1 |"
    assert out[3] == "| generated | 2 | 3.00 | 2.00 | 1 / 2 | 1 / 2 |"
