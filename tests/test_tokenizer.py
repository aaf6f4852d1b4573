import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minigpt.tokenizer import SPECIALS, CharTokenizer


def test_specials_come_first_then_sorted_characters():
    tok = CharTokenizer.from_text("床前明月光，疑是地上霜。")
    assert tok.itos[:4] == ["<pad>", "<bos>", "<eos>", "<sep>"]
    assert (tok.pad_id, tok.bos_id, tok.eos_id, tok.sep_id) == (0, 1, 2, 3)
    assert tok.itos[4:] == sorted(set("床前明月光，疑是地上霜。"))
    assert tok.vocab_size == 4 + 12


def test_same_characters_same_ids_whatever_the_order():
    assert CharTokenizer("cab").itos == CharTokenizer(["b", "a", "c", "a"]).itos


def test_encode_decode_round_trip():
    text = "First Citizen:\nBefore we proceed any further, hear me speak."
    tok = CharTokenizer.from_text(text)
    ids = tok.encode(text)
    assert all(4 <= i < tok.vocab_size for i in ids)
    assert tok.decode(ids) == text


@given(st.text(min_size=1, max_size=200))
def test_round_trip_any_text(text):
    tok = CharTokenizer.from_text(text)
    assert tok.decode(tok.encode(text)) == text


def test_decode_renders_specials_unless_skipped():
    tok = CharTokenizer.from_text("ab")
    ids = [tok.bos_id, *tok.encode("ab"), tok.sep_id, tok.eos_id, tok.pad_id]
    assert tok.decode(ids) == "<bos>ab<sep><eos><pad>"
    assert tok.decode(ids, skip_special=True) == "ab"


def test_unknown_characters_raise_and_are_listed():
    tok = CharTokenizer.from_text("明月光")
    with pytest.raises(ValueError) as e:
        tok.encode("明月照高楼")
    message = str(e.value)
    assert "'照'" in message and "'高'" in message and "'楼'" in message
    assert "'明'" not in message


def test_decode_rejects_ids_outside_vocabulary():
    tok = CharTokenizer.from_text("ab")
    with pytest.raises(ValueError, match="6"):
        tok.decode([4, 6])


def test_bad_inputs():
    with pytest.raises(ValueError, match="single characters"):
        CharTokenizer(["ab"])
    with pytest.raises(TypeError, match="text"):
        CharTokenizer.from_text(["a"])
    with pytest.raises(TypeError, match="text"):
        CharTokenizer.from_text("a").encode(5)


def test_to_dict_from_dict_through_json():
    tok = CharTokenizer.from_text("To be, or not to be: 生存还是毁灭\n")
    d = json.loads(json.dumps(tok.to_dict()))
    again = CharTokenizer.from_dict(d)
    assert again == tok
    assert again.itos == tok.itos
    assert again.encode("be 生") == tok.encode("be 生")


def test_from_dict_rejects_other_dicts():
    with pytest.raises(ValueError, match="to_dict"):
        CharTokenizer.from_dict({"chars": "ab"})
    with pytest.raises(ValueError, match="specials"):
        CharTokenizer.from_dict({"type": "char", "chars": "ab", "specials": ["<s>"]})
    assert SPECIALS == ("<pad>", "<bos>", "<eos>", "<sep>")
