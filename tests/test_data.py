import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from minigpt import data, manifest
from minigpt.data import (
    KEYWORD_SEP,
    Corpus,
    DataNotFoundError,
    format_example,
    format_prompt,
    load_poems,
    pick_keywords,
    poem_corpus,
    shakespeare_corpus,
)
from minigpt.poetry import FORMS, LINE_ENDS, classify
from minigpt.tokenizer import CharTokenizer


@pytest.fixture(scope="session")
def data_path() -> Path:
    value = os.environ.get("MINIGPT_DATA", "").strip()
    if not value:
        pytest.fail("MINIGPT_DATA is not set: point it at the data folder, e.g. MINIGPT_DATA=../shared/data")
    path = Path(value)
    if not (path / manifest.SHAKESPEARE_FILE).is_file():
        pytest.fail(f"MINIGPT_DATA={value} has no {manifest.SHAKESPEARE_FILE}: run `minigpt data download`")
    return path


@pytest.fixture(scope="session")
def cache_path(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("processed")


@pytest.fixture(scope="session")
def loaded(data_path, cache_path):
    """Cleaned poems, loaded cold (empty cache) once per session."""
    start = time.perf_counter()
    poems, stats = load_poems(data_path, cache=cache_path, stats=True)
    return poems, stats, time.perf_counter() - start


@pytest.fixture(scope="session")
def corpus(data_path, cache_path, loaded):
    return poem_corpus(seed=1337, data=data_path, cache=cache_path)


def test_data_dir_comes_from_minigpt_data_or_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("MINIGPT_DATA", str(tmp_path))
    assert data.data_dir() == tmp_path
    monkeypatch.setenv("MINIGPT_DATA", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform not in ("win32", "darwin"):
        assert data.data_dir() == tmp_path / "xdg" / "minigpt"
    monkeypatch.delenv("MINIGPT_CACHE", raising=False)
    assert manifest.processed_dir() == manifest.user_cache_dir() / "processed"
    monkeypatch.setenv("MINIGPT_CACHE", str(tmp_path / "c"))
    assert manifest.processed_dir() == tmp_path / "c"


def test_missing_corpus_says_how_to_fetch_it(tmp_path):
    for load in (lambda: load_poems(tmp_path), lambda: shakespeare_corpus(tmp_path)):
        with pytest.raises(DataNotFoundError) as e:
            load()
        assert isinstance(e.value, FileNotFoundError)
        assert "minigpt data download" in str(e.value) and str(tmp_path) in str(e.value)


def test_clean_stats_add_up(loaded):
    poems, stats, _ = loaded
    assert stats.total == 57607  # the 全唐诗 records, as the data README counts them
    assert stats.kept == len(poems)
    assert stats.kept + sum(stats.dropped.values()) == stats.total
    assert set(stats.dropped) <= {"missing_characters", "editorial_marks", "empty", "duplicate"}
    assert 300 < stats.dropped["missing_characters"] < 1000  # □ marks: 444 poems before notes are cut
    assert stats.dropped["duplicate"] > 100
    assert sum(stats.forms.values()) == stats.kept
    assert stats.forms == {f: sum(str(p.form) == f for p in poems) for f in [*FORMS, "None"]}


def test_form_counts_are_plausible(loaded):
    _, stats, _ = loaded
    # regulated verse is most of the Tang corpus; 五律 is the commonest form, 五绝 the rarest
    assert stats.forms["五言律诗"] > stats.forms["七言绝句"] > stats.forms["七言律诗"] > stats.forms["五言绝句"] > 3000
    assert 0.5 < sum(stats.forms[f] for f in FORMS) / stats.kept < 0.8


def test_poems_are_simplified_and_clean(loaded):
    poems, _, _ = loaded
    text = "".join(p.text for p in poems)
    assert len(text) > 3_000_000
    for traditional in "詩風雲頭來門們東":
        assert traditional not in text
    for mark in "□○{}[]（）()《》「」〖〗0123456789":
        assert mark not in text
    assert all(p.lines and all(len(line) >= 2 for line in p.lines) for p in poems)
    assert all(line[-1] in LINE_ENDS for p in poems for line in p.lines[:-1])
    assert len({p.text for p in poems}) == len(poems)  # no duplicates


def test_known_poems(loaded):
    poems, _, _ = loaded
    by = {(p.author, p.title): p for p in poems}
    jingyesi = by[("李白", "静夜思")]  # the 全唐诗 reading: 床前看月光 … 举头望山月
    assert jingyesi.lines == ("床前看月光，", "疑是地上霜。", "举头望山月，", "低头思故乡。")
    assert jingyesi.form == "五言绝句"
    assert by[("李白", "早发白帝城")].form == "七言绝句"
    assert by[("杜甫", "春望")].form == "五言律诗"
    assert by[("崔颢", "黄鹤楼")].form == "七言律诗"
    # a note "（一作「东风细雨」）" is cut out, the poem kept
    qiuyu = next(p for p in poems if p.text.startswith("阑风长雨秋纷纷，"))
    assert qiuyu.lines[0] == "阑风长雨秋纷纷，" and "一作" not in qiuyu.text
    # "[爽]节在重九": the character the editors restored is kept, the brackets go
    assert any(p.text.startswith("爽节在重九，") for p in poems)


def test_forms_agree_with_classify(loaded):
    poems, _, _ = loaded
    for p in poems[::97]:
        assert p.form == classify(p.text)


def test_warm_load_reads_the_cache(data_path, cache_path, loaded):
    poems, stats, cold = loaded
    files = list(cache_path.glob("poems-*.json"))
    assert len(files) == 1
    start = time.perf_counter()
    again, stats_again = load_poems(data_path, cache=cache_path, stats=True)
    warm = time.perf_counter() - start
    assert again == poems and stats_again == stats
    print(f"load_poems: cold {cold:.2f} s, warm {warm:.2f} s")
    assert list(cache_path.iterdir()) == files  # no temp files left behind


def test_keywords_come_from_the_poem():
    poem = data.Poem("静夜思", "李白", ("床前明月光，", "疑是地上霜。", "举头望明月，", "低头思故乡。"), "五言绝句")
    rng = np.random.default_rng(0)
    counts = set()
    for _ in range(200):
        kws = pick_keywords(poem, rng.random(7))
        assert 1 <= len(kws) <= 3 and len(set(kws)) == len(kws)
        assert all(1 <= len(w) <= 2 and w in poem.text and not set(w) & set(LINE_ENDS) for w in kws)
        # two-character keywords are words at a line's start (5-character lines read 2+3)
        assert all(len(w) == 1 or any(line.startswith(w) for line in poem.lines) for w in kws)
        counts.add(len(kws))
    assert counts == {1, 2, 3}


def test_poem_corpus_layout(corpus, loaded):
    tok = corpus.tokenizer
    assert corpus.name == "poems" and corpus.train.dtype == np.int64 and corpus.val.dtype == np.int64
    info = corpus.info
    assert info["poems_train"] + info["poems_val"] == sum(loaded[1].forms[f] for f in FORMS)
    assert info["poems_val"] == round(0.05 * (info["poems_train"] + info["poems_val"]))
    assert np.sum(corpus.train == tok.bos_id) == info["poems_train"]
    assert np.sum(corpus.val == tok.eos_id) == info["poems_val"]
    assert corpus.train[0] == tok.bos_id and corpus.train[-1] == tok.eos_id
    assert 5000 < tok.vocab_size < 8000
    # every example is <bos> form <sep> keywords <sep> poem <eos>, and the keywords are in the poem
    texts = {}
    for split in ("train", "val"):
        examples = tok.decode(getattr(corpus, split)).split("<eos>")[:-1]
        for example in examples[:: 50]:
            head, form, keywords, poem = example.replace("<bos>", "<bos><sep>", 1).split("<sep>")
            assert head == "<bos>" and form in FORMS and classify(poem) == form
            assert all(k in poem for k in keywords.split(KEYWORD_SEP))
        texts[split] = {e.rsplit("<sep>", 1)[1] for e in examples}
    assert not texts["train"] & texts["val"]


def test_poem_corpus_is_deterministic(data_path, cache_path, corpus):
    same = poem_corpus(seed=1337, data=data_path, cache=cache_path)
    assert np.array_equal(same.train, corpus.train) and np.array_equal(same.val, corpus.val)
    other = poem_corpus(seed=7, data=data_path, cache=cache_path)
    assert not np.array_equal(other.val[:1000], corpus.val[:1000])
    assert other.tokenizer == corpus.tokenizer  # same poems, same vocabulary
    with pytest.raises(ValueError, match="val_fraction"):
        poem_corpus(val_fraction=1.5, data=data_path, cache=cache_path)


def test_format_prompt_is_the_start_of_a_training_example(corpus):
    tok = corpus.tokenizer
    ids = format_prompt(tok, "五言绝句", ["明月", "霜"])
    assert tok.decode(ids) == "<bos>五言绝句<sep>明月、霜<sep>"
    assert ids[-1] == tok.sep_id and ids.count(tok.sep_id) == 2
    example = format_example("五言绝句", ["明月", "霜"], "床前明月光，")
    assert example.startswith(tok.decode(ids))
    assert format_prompt(tok, "五绝", "明月 霜") == ids  # alias, and words in one string
    assert format_prompt(tok, "五绝", "明月，霜") == ids
    assert tok.decode(format_prompt(tok, "七律", "秋")) == "<bos>七言律诗<sep>秋<sep>"


def test_format_prompt_errors(corpus):
    tok = corpus.tokenizer
    with pytest.raises(ValueError) as e:
        format_prompt(tok, "宋词", ["月"])
    assert all(form in str(e.value) for form in FORMS)
    with pytest.raises(ValueError, match="1 to 3"):
        format_prompt(tok, "五言绝句", ["春", "夏", "秋", "冬"])
    with pytest.raises(ValueError, match="1 to 3"):
        format_prompt(tok, "五言绝句", [])
    with pytest.raises(ValueError, match="'😀'"):
        format_prompt(tok, "五言绝句", ["月😀"])
    with pytest.raises(TypeError, match="tokenizer"):
        format_prompt("tok", "五言绝句", ["月"])


def test_get_batch_shapes_and_shift():
    tok = CharTokenizer.from_text("abcdefghij")
    stream = np.array(tok.encode("abcdefghij" * 10), dtype=np.int64)
    corpus = Corpus(stream, stream[:20].copy(), tok, "toy")
    x, y = corpus.get_batch("train", 8, 16, np.random.default_rng(0))
    assert x.shape == y.shape == (8, 16) and x.dtype == y.dtype == np.int64
    assert np.array_equal(x[:, 1:], y[:, :-1])
    for row_x, row_y in zip(x, y):  # each row is a window of the stream, y one step ahead
        start = int(np.flatnonzero(stream == row_x[0])[0])
        assert tok.decode(row_x) == tok.decode(stream[start : start + 16])
        assert (row_y - row_x == 1).sum() + (row_y - row_x == -9).sum() == 16
    again = corpus.get_batch("train", 8, 16, np.random.default_rng(0))
    assert np.array_equal(again[0], x)
    x, _ = corpus.get_batch("val", 4, 19, np.random.default_rng(0))
    assert x.shape == (4, 19)


def test_get_batch_errors():
    tok = CharTokenizer.from_text("ab")
    corpus = Corpus(np.zeros(100, dtype=np.int64), np.zeros(10, dtype=np.int64), tok, "toy")
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="split"):
        corpus.get_batch("test", 2, 4, rng)
    with pytest.raises(ValueError, match="block_size=10.*val.*10 tokens"):
        corpus.get_batch("val", 2, 10, rng)
    with pytest.raises(ValueError, match="batch_size"):
        corpus.get_batch("train", 0, 4, rng)
    with pytest.raises(ValueError, match="block_size"):
        corpus.get_batch("train", 2, 4.0, rng)
    with pytest.raises(TypeError, match="rng"):
        corpus.get_batch("train", 2, 4, 0)


def test_shakespeare_matches_nanogpt_split(data_path):
    corpus = shakespeare_corpus(data_path)
    text = (data_path / manifest.SHAKESPEARE_FILE).read_text(encoding="utf-8")
    assert len(text) == 1_115_394
    # nanoGPT's shakespeare_char: 65 characters, train = first 90%, val = the rest
    assert corpus.tokenizer.vocab_size == 65 + 4
    assert len(corpus.train) == 1_003_854 and len(corpus.val) == 111_540
    assert corpus.tokenizer.decode(corpus.train[:14]) == "First Citizen:"
    assert corpus.tokenizer.decode(corpus.val) == text[1_003_854:]
    x, y = corpus.get_batch("val", 4, 256, np.random.default_rng(1))
    assert x.shape == (4, 256) and np.array_equal(x[:, 1:], y[:, :-1])


# --------------------------------------------------------------------------- Tang plus Song poems, on small data

TANG_FILES = ["chinese-poetry/全唐诗/poet.tang.0.json", "chinese-poetry/全唐诗/poet.tang.1000.json"]
SONG_FILES = ["chinese-poetry/全唐诗/poet.song.0.json", "chinese-poetry/全唐诗/poet.song.1000.json"]
TANG_CHARS = "春江花月夜山水风云雨天地人心日"
SONG_CHARS = "梅竹松菊霜寒冰雪天地人心日"  # 梅竹松菊霜寒冰雪 are Song-only here


def fake_poems(rng, chars: str, n: int, author: str) -> list[dict]:
    """``n`` made-up 五言绝句 records of ``chars``, in the upstream layout."""
    def line() -> str:
        return "".join(rng.choice(list(chars), size=5))
    return [{"author": author, "title": f"{author}{i}", "paragraphs": [f"{line()}，{line()}。", f"{line()}，{line()}。"]}
            for i in range(n)]


@pytest.fixture
def small(tmp_path, monkeypatch):
    """A data folder with 40 Tang poems and 32 Song ones (one of them a Tang poem's text, one of no
    form) in two files each, and an empty processed cache. Returns (data folder, cache folder)."""
    monkeypatch.setattr(data, "poem_files", lambda: TANG_FILES)
    monkeypatch.setattr(data, "song_files", lambda: SONG_FILES)
    rng = np.random.default_rng(0)
    tang = fake_poems(rng, TANG_CHARS, 40, "唐人")
    song = fake_poems(rng, SONG_CHARS, 30, "宋人")
    song += [dict(tang[5], author="宋人"), {"author": "宋人", "title": "残句", "paragraphs": ["梅竹松菊霜。"]}]
    folder = tmp_path / "data"
    (folder / TANG_FILES[0]).parent.mkdir(parents=True)
    for files, records in ((TANG_FILES, tang), (SONG_FILES, song)):
        half = len(records) // 2
        for path, part in zip(files, (records[:half], records[half:])):
            (folder / path).write_text(json.dumps(part, ensure_ascii=False), encoding="utf-8")
    return folder, tmp_path / "processed"


def examples(corpus, split: str) -> list[tuple[str, list[str], str]]:
    """(form, keywords, poem) of every example of ``split``."""
    out = []
    for example in corpus.tokenizer.decode(getattr(corpus, split)).split("<eos>")[:-1]:
        _, form, keywords, poem = example.replace("<bos>", "<bos><sep>", 1).split("<sep>")
        out.append((form, keywords.split(KEYWORD_SEP), poem))
    return out


def test_poems_and_song_validate_on_the_tang_validation_poems(small):
    folder, cache = small
    tang = poem_corpus(seed=3, val_fraction=0.2, data=folder, cache=cache)
    both = poem_corpus(seed=3, val_fraction=0.2, data=folder, cache=cache, song=True)
    assert tang.name == "poems" and both.name == "poems+song"
    # validation: exactly the Tang corpus's poems and keywords; training: the Tang corpus's, then the Song poems
    assert both.tokenizer.decode(both.val) == tang.tokenizer.decode(tang.val)
    assert examples(both, "train")[: tang.info["poems_train"]] == examples(tang, "train")
    song = load_poems(folder, cache=cache, dynasty="song")
    assert len(song) == 32 and sum(p.form is None for p in song) == 1
    song_texts = {p.text for p in song if p.form}
    val_texts = {poem for _, _, poem in examples(both, "val")}
    train_texts = [poem for _, _, poem in examples(both, "train")]
    assert not song_texts & val_texts  # a Song poem never lands in validation
    assert song_texts <= set(train_texts) and len(set(train_texts)) == len(train_texts)  # the Tang text once
    assert both.info["song_train"] == 30 and both.info["song_duplicates_of_tang"] == 1
    assert both.info["poems_train"] == tang.info["poems_train"] + 30
    assert both.info["poems_val"] == tang.info["poems_val"] == 8
    for _, keywords, poem in examples(both, "train"):
        assert all(k in poem for k in keywords)
    # the vocabulary covers both; the keyword prompts work with Song words
    assert set(tang.tokenizer.chars) < set(both.tokenizer.chars) and "梅" in both.tokenizer.stoi
    assert both.tokenizer.decode(format_prompt(both.tokenizer, "五绝", "梅 雪")) == "<bos>五言绝句<sep>梅、雪<sep>"
    with pytest.raises(ValueError, match="'梅'"):
        format_prompt(tang.tokenizer, "五绝", "梅")
    again = poem_corpus(seed=3, val_fraction=0.2, data=folder, cache=cache, song=True)
    assert np.array_equal(again.train, both.train) and np.array_equal(again.val, both.val)


def test_song_poems_are_cached_apart(small):
    folder, cache = small
    poem_corpus(data=folder, cache=cache)
    (tang_cache,) = cache.glob("poems-*.json")
    before = (tang_cache.read_bytes(), tang_cache.stat().st_mtime_ns)
    poem_corpus(data=folder, cache=cache, song=True)
    assert sorted(p.name.split("-")[0] for p in cache.iterdir()) == ["poems", "song"]
    assert (tang_cache.read_bytes(), tang_cache.stat().st_mtime_ns) == before  # the Tang cache is untouched
    with pytest.raises(ValueError, match="dynasty must be one of tang, song"):
        load_poems(folder, cache=cache, dynasty="ming")


def test_poems_and_song_trains(small, tmp_path):
    from minigpt.checkpoint import load_checkpoint
    from minigpt.config import TrainConfig
    from minigpt.train import train

    folder, cache = small
    corpus = poem_corpus(val_fraction=0.2, data=folder, cache=cache, song=True)
    config = TrainConfig(corpus="poems+song", n_layer=1, n_head=2, n_embd=16, block_size=16, batch_size=4,
                         max_steps=3, warmup_steps=1, eval_interval=3, eval_iters=1, out_dir=str(tmp_path / "run"),
                         device="cpu", threads=1)
    result = train(config, corpus=corpus, progress=False, plot=False)
    assert result.step == 3 and np.isfinite(result.val_loss)
    ckpt = load_checkpoint(result.checkpoint)
    assert ckpt["train_config"]["corpus"] == "poems+song" and ckpt["tokenizer"] == corpus.tokenizer.to_dict()
    with pytest.raises(ValueError, match="corpus must be one of shakespeare, poems, poems\\+song"):
        TrainConfig(corpus="song")


def test_missing_song_poems_say_what_to_run(small):
    folder, cache = small
    for path in SONG_FILES[1:]:
        (folder / path).unlink()
    for load in (lambda: poem_corpus(data=folder, cache=cache, song=True),
                 lambda: load_poems(folder, cache=cache, dynasty="song")):
        with pytest.raises(DataNotFoundError) as e:
            load()
        message = str(e.value)
        assert "\n" not in message and len(message) < 300, message
        assert "Song poems" in message and "poet.song.1000.json" in message and str(folder) in message
        assert "`minigpt data download --song`" in message
    assert not cache.exists()  # it failed before any work
    assert poem_corpus(data=folder, cache=cache).name == "poems"  # the Tang corpus does not need them
