"""minigpt.bpe: merges by hand, round trips (Chinese, emoji, every corpus file), the order of merges, training
determinism, GPT-2's byte table, pre-split and file format, and short clear errors."""

from __future__ import annotations

import json
import unicodedata

import pytest

from minigpt import bpe
from minigpt.bpe import BPETokenizer, bytes_to_unicode, merge, pair_counts, split, train
from minigpt.manifest import SHAKESPEARE_FILE, data_dir, poem_files

SAMPLE = "The quick brown fox, the lazy dog; the end. 床前明月光，疑是地上霜。 🌙🚀 naïve café 2024!\n\ttabs  "


def test_pair_counts_and_merge_by_hand():
    assert pair_counts([1, 2, 1, 2]) == {(1, 2): 2, (2, 1): 1}
    assert merge([1, 2, 3, 1, 2], (1, 2), 256) == [256, 3, 256]
    assert merge([7, 7, 7], (7, 7), 256) == [256, 7]  # left to right, an id in one pair at most
    assert merge([1, 3], (1, 2), 256) == [1, 3] and merge([], (1, 2), 256) == []


def test_a_tiny_training_computed_by_hand():
    # aaabdaaabac: aa occurs 4 times (overlapping) -> 256; then ab (2, counted before <256>a) -> 257;
    # then <256><257> (2) -> 258, leaving <258> d <258> a c
    merges = train("aaabdaaabac", 259, pattern=None)
    a, b = ord("a"), ord("b")
    assert merges == {(a, a): 256, (a, b): 257, (256, 257): 258}
    tok = BPETokenizer(merges, pattern=None)
    assert tok.encode("aaabdaaabac") == [258, ord("d"), 258, a, ord("c")]
    assert tok.vocab[258] == b"aaab"


def test_merges_are_applied_in_the_order_learned():
    # with (b, c) ranked before (a, b), "abc" must become a + <bc>, not <ab> + c
    a, b, c = (ord(x) for x in "abc")
    tok = BPETokenizer({(b, c): 256, (a, b): 257}, pattern=None)
    assert tok.encode("abc") == [a, 256]
    tok = BPETokenizer({(a, b): 256, (b, c): 257}, pattern=None)
    assert tok.encode("abc") == [256, c]


def test_round_trip_of_chinese_emoji_and_odd_bytes():
    tok = BPETokenizer.train(SAMPLE * 3, 300)
    for text in (SAMPLE, "", "床", "🌙", "\x00\x7f\u200b", "e\u0301", "𠀀"):  # Ext B: 4 bytes
        assert tok.decode(tok.encode(text)) == text
    assert len(BPETokenizer({}).encode("床")) == 3 and len(BPETokenizer({}).encode("🌙")) == 4


def test_training_is_deterministic_and_a_smaller_training_is_a_prefix():
    first, second = train(SAMPLE * 5, 320), train(SAMPLE * 5, 320)
    assert list(first.items()) == list(second.items())
    smaller = train(SAMPLE * 5, 290)
    assert list(smaller.items()) == list(first.items())[:34]
    assert list(first.values()) == list(range(256, 256 + len(first)))


def test_training_stops_when_no_pair_is_left():
    assert train("ab", 1000, pattern=None) == {(97, 98): 256}


def test_the_pre_split_is_gpt2s():
    assert split("Hello world, it's 2024!  I'm here.\n") == [
        "Hello", " world", ",", " it", "'s", " 2024", "!", " ", " I", "'m", " here", ".", "\n"]
    assert split("床前 明月") == ["床前", " 明月"]
    assert split("x²½", None) == ["x²½"]


def test_letter_and_number_classes_follow_unicode_categories():
    letters = bpe.compile_split(r"\p{L}+")
    numbers = bpe.compile_split(r"\p{N}+")
    for ch in "aZéλ床ー":
        assert letters.fullmatch(ch) and unicodedata.category(ch)[0] == "L"
    for ch in "7²½Ⅻ٣":
        assert numbers.fullmatch(ch) and unicodedata.category(ch)[0] == "N"
    assert not letters.fullmatch("_") and not numbers.fullmatch("a")


def test_against_the_regex_package_where_it_is_installed():
    regex = pytest.importorskip("regex")
    ours = bpe.compile_split()
    theirs = regex.compile(bpe.GPT2_SPLIT)
    assert ours.findall(SAMPLE) == theirs.findall(SAMPLE)


def test_gpt2s_byte_table():
    table = bytes_to_unicode()
    assert len(set(table.values())) == 256
    assert table[ord(" ")] == "Ġ" and table[ord("\n")] == "Ċ" and table[ord("A")] == "A" and table[0] == "Ā"


def write_gpt2_files(tmp_path, tok: BPETokenizer):
    """tok's vocabulary in GPT-2's format, bytes numbered as GPT-2 numbers them."""
    table = bytes_to_unicode()
    word = {i: "".join(table[b] for b in tok.vocab[i]) for i in tok.vocab}
    vocab = {table[b]: n for n, b in enumerate(sorted(range(256), key=lambda b: ord(table[b])))}
    vocab.update({word[i]: i for i in range(256, tok.vocab_size)})
    vocab["<|endoftext|>"] = tok.vocab_size
    (tmp_path / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    lines = "".join(f"{word[a]} {word[b]}\n" for a, b in tok.merges)
    (tmp_path / "merges.txt").write_text("#version: 0.2\n" + lines, encoding="utf-8")
    return tmp_path / "vocab.json", tmp_path / "merges.txt"


def test_gpt2_files_encode_like_the_tokenizer_they_were_written_from(tmp_path):
    tok = BPETokenizer.train(SAMPLE * 4, 300)
    back = BPETokenizer.from_gpt2_files(*write_gpt2_files(tmp_path, tok))
    assert back.byte_ids[ord("!")] == 0  # GPT-2 numbers the printable bytes first
    for text in (SAMPLE, "the fox 床"):
        assert [back.decode([i]) for i in back.encode(text)] == [tok.decode([i]) for i in tok.encode(text)]
        assert back.decode(back.encode(text)) == text
    assert back.decode([tok.vocab_size]) == "<|endoftext|>"


def test_bad_input_gives_a_short_clear_error(tmp_path):
    tok = BPETokenizer.train(SAMPLE, 260)
    with pytest.raises(ValueError, match=r"^vocab_size must be an integer of at least 256 .*got 100$"):
        train(SAMPLE, 100)
    with pytest.raises(ValueError, match="vocab_size"):
        train(SAMPLE, 300.0)
    with pytest.raises(TypeError, match=r"^text must be a str, got bytes$"):
        tok.encode(b"abc")
    with pytest.raises(ValueError, match=r"^id 999 is not in the vocabulary \(ids 0\.\.259\)$"):
        tok.decode([1, 999])
    with pytest.raises(ValueError, match="uses an id that no byte or earlier merge makes"):
        BPETokenizer({(300, 1): 256})
    vocab_json, merges_txt = write_gpt2_files(tmp_path, tok)
    merges_txt.write_text("#version: 0.2\nq z\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2: 'q z' is not a merge of two tokens"):
        BPETokenizer.from_gpt2_files(vocab_json, merges_txt)


def test_to_dict_round_trip():
    tok = BPETokenizer.train(SAMPLE, 280)
    again = BPETokenizer.from_dict(json.loads(json.dumps(tok.to_dict())))
    assert again.encode(SAMPLE) == tok.encode(SAMPLE) and again.to_dict() == tok.to_dict()


def test_round_trip_of_every_corpus_file():
    files = [*poem_files(), SHAKESPEARE_FILE]
    if not all((data_dir() / f).is_file() for f in files):
        pytest.skip("the corpora are not downloaded (minigpt data download, or MINIGPT_DATA)")
    tok = BPETokenizer.train((data_dir() / SHAKESPEARE_FILE).read_text(encoding="utf-8")[:50_000], 300)
    for f in files:  # 100,000 characters of each: every file's kinds of text, in a few seconds (all of them: ~20 s)
        text = (data_dir() / f).read_text(encoding="utf-8")[:100_000]
        assert tok.decode(tok.encode(text)) == text, f
