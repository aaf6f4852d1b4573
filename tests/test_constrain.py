"""minigpt.constrain: every strict poem has the form, rhymes, keeps a tone pattern and holds its keywords,
whatever the logits say; impossible requests are one clear error; both GPTs apply the constraint alike."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from minigpt import gpt, gpt_torch, poetry, rhyme
from minigpt.config import GPTConfig
from minigpt.constrain import KEYWORD_BOOST, PoemConstraint
from minigpt.convert import to_torch
from minigpt.data import KEYWORD_SEP, format_prompt
from minigpt.sampling import sample
from minigpt.tokenizer import CharTokenizer

from cli_run import run

UNKNOWN = "啼扫沉迹疎"  # Chinese characters the 平水韵 book does not list
KEYWORDS = ["月", "江", "明月", "啼鸟", "白云", "山", "春风", "故乡"]
OTHERS = "天照大"  # characters of the impossible keywords below


@pytest.fixture(scope="module")
def tok() -> CharTokenizer:
    """About 1,500 characters of the rhyme book, a few it does not list, punctuation and the form names."""
    known = sorted(rhyme.table().groups_of)[::5]
    return CharTokenizer(set(known) | set(UNKNOWN + OTHERS) | set("".join(KEYWORDS)) | set("".join(poetry.FORMS))
                         | set(poetry.LINE_ENDS + KEYWORD_SEP + "："))


def write(tok, form, keywords, rng, rows=6, bias=None, **kwargs) -> list[str]:
    """Poems written from random logits (a model that knows nothing) through the constraint."""
    constraint = PoemConstraint(tok, form, keywords, **kwargs)
    prompt = format_prompt(tok, form, keywords)
    idx = np.array([prompt] * rows)  # (B, T)
    for _ in range(80):
        logits = rng.normal(size=(rows, tok.vocab_size)) * 3  # (B, V)
        if bias is not None:
            logits = logits + bias
        nxt = sample(constraint(idx, logits), temperature=1.0, rng=rng)  # (B,)
        idx = np.concatenate([idx, nxt[:, None]], axis=1)
        if (nxt == tok.eos_id).all():
            break
    assert (idx == tok.eos_id).any(axis=1).all(), "every row ends with <eos>"
    return [tok.decode(r[len(prompt): list(r).index(tok.eos_id)]) for r in idx.tolist()]


@pytest.mark.parametrize("boost", [2.0, None])
@pytest.mark.parametrize("form", list(poetry.FORMS))
def test_every_poem_keeps_every_rule(tok, form, boost):
    rng = np.random.default_rng(0)
    for seed in range(3):
        keywords = [KEYWORDS[(seed + k) % len(KEYWORDS)] for k in range(1 + seed)]
        for text in write(tok, form, keywords, rng, boost=boost):
            check = poetry.check_poem(text, form, keywords)
            assert check.form.ok, (text, check.form.reason)
            assert check.rhyme.ok, (text, check.rhyme.reason)
            assert check.tones.ok and check.tones.share == 1.0 and check.tones.unknown == 0, (text, check.tones)
            assert check.keywords.ok, (text, keywords)
            lines = [line[:-1] for line in poetry.split_lines(text)]
            ends = [lines[i - 1][-1] for i in poetry.rhyme_lines(form)]
            assert len(set(ends)) == len(ends), f"a rhyme character twice: {text}"


def test_a_group_too_small_to_finish_the_poem_is_never_chosen(tok):
    counts = {g: sum(c in rhyme.members(g) for c in tok.chars) for g in rhyme.group_names(rhyme.PING)}
    biggest = max(counts, key=counts.get)
    for text in write(tok, "五言律诗", ["山"], np.random.default_rng(4), min_members=counts[biggest]):
        assert poetry.check_rhyme(text, "五言律诗").group == biggest, text
    with pytest.raises(ValueError, match="any 平声 group with"):
        PoemConstraint(tok, "五言律诗", ["山"], min_members=counts[biggest] + 1)


def test_unknown_characters_only_at_free_positions(tok):
    bias = np.zeros(tok.vocab_size)
    bias[[tok.stoi[c] for c in UNKNOWN]] = 20.0  # a model that loves characters of no known tone
    seen = 0
    for form in ("五言绝句", "七言律诗"):
        free = poetry.FREE_POSITIONS[poetry.FORMS[form][1]]
        for text in write(tok, form, ["月"], np.random.default_rng(1), bias=bias):
            for line in poetry.split_lines(text):
                for j, c in enumerate(line[:-1], 1):
                    if not rhyme.is_known(c):
                        assert j in free, (text, c, j)
                        seen += 1
    assert seen > 0, "unknown characters are still allowed where the tone is free"


def test_a_keyword_of_unknown_tone_goes_to_a_free_position(tok):
    for text in write(tok, "五言绝句", ["啼鸟"], np.random.default_rng(2)):
        line = next(line for line in poetry.split_lines(text) if "啼鸟" in line)
        assert line.index("啼鸟") + 1 in poetry.FREE_POSITIONS[5]


@pytest.mark.parametrize("boost", [None, KEYWORD_BOOST])
@pytest.mark.parametrize("form, keyword, text", [
    ("五言绝句", "黄河", "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"),
    ("七言绝句", "江陵", "朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。"),
])
def test_a_model_that_likes_the_rules_is_left_alone(tok, form, keyword, text, boost):
    """A model whose favourite is always the next character of a real regulated poem writes exactly that poem
    through the constraint, although at every step the constraint rules out much of the vocabulary."""
    check = poetry.check_poem(text, form, [keyword])
    assert check.form.ok and check.rhyme.ok and check.tones.ok and check.keywords.ok
    tok = CharTokenizer(set(tok.chars) | set(text))
    constraint = PoemConstraint(tok, form, [keyword], boost=boost)
    idx = np.array([format_prompt(tok, form, [keyword])])  # (1, T)
    rng = np.random.default_rng(3)
    ruled_out = []
    for t in tok.encode(text) + [tok.eos_id]:
        logits = rng.normal(size=(1, tok.vocab_size))  # (1, V)
        logits[0, t] += 10.0  # the model's favourite: the poem's next character
        out = constraint(idx, logits)
        ruled_out.append(np.isinf(out).mean())
        nxt = sample(out, temperature=0.0)  # (1,)
        assert nxt[0] == t, (tok.decode(idx[0]), tok.itos[int(nxt[0])], tok.itos[t])
        idx = np.concatenate([idx, nxt[:, None]], axis=1)
    assert min(ruled_out) > 0 and np.mean(ruled_out) > 0.3, ruled_out  # share of the vocabulary set to -inf


@pytest.mark.parametrize("form", ["五言绝句", "七言律诗"])
def test_no_character_comes_twice_but_as_a_reduplication(tok, form):
    """A model that loves a few characters repeats them freely without the rule (the control), and under
    it says each once, or twice in a row (叠字), never three in a row."""
    rng = np.random.default_rng(1)
    bias = np.zeros(tok.vocab_size)
    bias[tok.encode("".join(c for c in "花山风流人天明江白云春" if c in tok.stoi))] = 9.0  # the model's favourites
    poems = {rule: write(tok, form, ["月"], rng, rows=8, bias=bias, no_repeat=rule) for rule in (True, False)}
    without = [poetry.check_repeats(t) for t in poems[False]]
    assert sum(r.repeated - r.doubled for r in without) >= 8, poems[False]  # the control repeats
    for text in poems[True]:
        r = poetry.check_repeats(text)
        assert r.repeated == r.doubled and r.rhyme_repeated == 0, text
        assert not any(a == b == c for a, b, c in zip(text, text[1:], text[2:])), text
        assert poetry.check_poem(text, form, ["月"]).tones.ok, text


def test_a_variant_form_counts_as_its_character():
    """A model that loves 雁 and its variant 鴈 (and 疏, 疎) writes one goose per poem under the rule, never
    雁鴈 as a 叠字; the control writes both."""
    tok = CharTokenizer(set(sorted(rhyme.table().groups_of)[::5]) | set("雁鴈疏疎月") | set("".join(poetry.FORMS))
                        | set(poetry.LINE_ENDS + KEYWORD_SEP + "："))
    rng = np.random.default_rng(3)
    bias = np.zeros(tok.vocab_size)
    bias[tok.encode("雁鴈疏疎")] = 9.0
    for rule in (True, False):
        poems = write(tok, "七言律诗", ["月"], rng, rows=6, bias=bias, no_repeat=rule)
        both = [t for t in poems if ("雁" in t and "鴈" in t) or ("疏" in t and "疎" in t)]
        if rule:
            assert not both, both
            for text in poems:
                r = poetry.check_repeats(text)
                assert r.repeated == r.doubled and r.rhyme_repeated == 0, text
                assert not {"雁鴈", "鴈雁", "疏疎", "疎疏"} & {text[k:k + 2] for k in range(len(text))}, text
        else:
            assert both, poems


def write_doubling(tok, form, rng, rows=8, **kwargs) -> list[str]:
    """Poems from a model that loves to write its last character again (and knows nothing else)."""
    constraint = PoemConstraint(tok, form, ["月"], **kwargs)
    idx = np.array([format_prompt(tok, form, ["月"])] * rows)  # (B, T)
    for _ in range(80):
        logits = rng.normal(size=(rows, tok.vocab_size)) * 3  # (B, V)
        logits[np.arange(rows), idx[:, -1]] += 12.0
        nxt = sample(constraint(idx, logits), temperature=1.0, rng=rng)  # (B,)
        idx = np.concatenate([idx, nxt[:, None]], axis=1)
        if (nxt == tok.eos_id).all():
            break
    return [tok.decode(r[r.index(tok.sep_id, r.index(tok.sep_id) + 1) + 1 : r.index(tok.eos_id)]) for r in idx.tolist()]


@pytest.mark.parametrize("form", ["五言绝句", "七言律诗"])
def test_idiom_doubles_only_what_the_poems_double(tok, form):
    """Under the idiom rules a 叠字 is of a character the Tang poems double (doubles.txt), one per four lines;
    the control doubles whatever comes, several times a poem."""
    rng = np.random.default_rng(4)
    known = poetry.doubles()
    for idiom in (True, False):
        poems = write_doubling(tok, form, rng, idiom=idiom)
        pairs = [[a for a, b in zip(t, t[1:]) if a == b and poetry.is_han(a)] for t in poems]
        if idiom:
            assert all(set(p) <= known and len(p) <= len(poetry.split_lines(t)) // 4 for p, t in zip(pairs, poems)), poems
            assert all(poetry.check_poem(t, form, ["月"]).tones.ok for t in poems), poems
        else:
            assert any(set(p) - known for p in pairs) and max(map(len, pairs)) > 2, poems


def test_idiom_keeps_to_one_season():
    """A model that loves 春 and 秋 writes both in one poem without the idiom rules, one of them with; a keyword
    of one season rules out the other from the start."""
    tok = CharTokenizer(set(sorted(rhyme.table().groups_of)[::5]) | set("春秋风月") | set("".join(poetry.FORMS))
                        | set(poetry.LINE_ENDS + KEYWORD_SEP + "："))
    bias = np.zeros(tok.vocab_size)
    bias[tok.encode("春秋")] = 9.0
    rng = np.random.default_rng(5)
    both = lambda t: "春" in t and "秋" in t  # noqa: E731
    assert any(map(both, write(tok, "七言律诗", ["月"], rng, bias=bias)))
    assert not any(map(both, write(tok, "七言律诗", ["月"], rng, bias=bias, idiom=True)))
    poems = write(tok, "七言律诗", ["秋"], rng, bias=bias, idiom=True)
    assert all("秋" in t and "春" not in t for t in poems), poems


def test_idiom_rhymes_a_character_only_where_the_poems_do():
    """The book lists 逢 in 三江 too; a model that loves 逢 and 江 (and may write them again and again) rhymes them
    together without the idiom rules and never with them (poetry.rare_rhymes)."""
    tok = CharTokenizer(set(sorted(rhyme.table().groups_of)[::5]) | set("逢江月") | set("".join(poetry.FORMS))
                        | set(poetry.LINE_ENDS + KEYWORD_SEP + "："))
    bias = np.zeros(tok.vocab_size)
    bias[tok.encode("逢江")] = 9.0
    rng = np.random.default_rng(6)
    for idiom in (False, True):
        poems = write(tok, "五言绝句", ["月"], rng, rows=8, bias=bias, idiom=idiom, no_repeat=False)  # both, often
        rare = [t for t in poems if poetry.rhymes_by_a_rare_reading(t, "五言绝句")]
        assert all(poetry.check_poem(t, "五言绝句", ["月"]).rhyme.ok for t in poems), poems
        assert (not rare) if idiom else rare, poems


def test_a_keywords_characters_wait_for_the_keyword(tok):
    """A model that loves 风 writes it only inside 春风 (once), under the rule; the control writes it more."""
    rng = np.random.default_rng(2)
    bias = np.zeros(tok.vocab_size)
    bias[tok.stoi["风"]] = 9.0
    for rule, most in ((True, 1), (False, None)):
        poems = write(tok, "七言律诗", ["春风"], rng, rows=6, bias=bias, no_repeat=rule)
        counts = [t.count("风") for t in poems]
        assert all("春风" in t for t in poems)
        assert max(counts) == most if rule else max(counts) > 1, poems


def test_the_constraint_knows_how_many_tokens_a_poem_takes(tok):
    c = PoemConstraint(tok, "七律", ["月"])
    assert c.tokens_needed() == 8 * (7 + 1) + 1 and c.tokens_needed("山月") == 63  # lines, punctuation, <eos>
    c.check_room(65)
    with pytest.raises(ValueError, match="it needs 65 new tokens, and only 64 are allowed"):
        c.check_room(64)


@pytest.mark.parametrize("keywords, message", [
    (["月", "Q"], "keyword 'Q' has characters the model has never seen: 'Q'"),
    (["明月照大江山"], "keyword '明月照大江山' has 6 characters; a line of 五言绝句 holds 5"),
    (["月："], "keyword '月：' must be Chinese characters only"),
    (["沉啼"], "keyword '沉啼' cannot be placed in a 五言绝句: the 平水韵 book gives no tone for 沉、啼"),
    (["天天天天"], "keyword '天天天天' cannot be placed in a 五言绝句: its tones fit no line of a standard 平仄"),
    (["月明", "江山", "白云", "春风", "故乡", "明月", "山月", "白月", "江月", "春月", "乡月"],
     "the keywords have 22 characters; a 五言绝句 holds 20"),
])
def test_impossible_keywords_are_one_clear_error(tok, keywords, message):
    with pytest.raises(ValueError, match=message) as e:
        PoemConstraint(tok, "五言绝句", keywords)
    assert "\n" not in str(e.value)


def test_a_form_without_a_rhyme_rule_is_refused(tok, monkeypatch):
    monkeypatch.setattr(poetry, "rhyme_lines", lambda form: ())
    with pytest.raises(ValueError, match="五言绝句 has no rhyme rule"):
        PoemConstraint(tok, "五言绝句", ["月"])


def test_an_opening_that_breaks_the_rules_is_refused(tok):
    prompt = format_prompt(tok, "五言绝句", ["月"])
    fine = PoemConstraint(tok, "五言绝句", ["月"])
    fine(np.array([prompt + tok.encode("山月")]), np.zeros((1, tok.vocab_size)))
    broken = PoemConstraint(tok, "五言绝句", ["月"])
    with pytest.raises(ValueError, match="breaks the rules of a strict 五言绝句 at character 6"):
        broken(np.array([prompt + tok.encode("山月白云天天")]), np.zeros((1, tok.vocab_size)))


def test_both_gpts_write_the_same_strict_poem(tok):
    cfg = GPTConfig(vocab_size=tok.vocab_size, block_size=48, n_layer=1, n_head=2, n_embd=16)
    src = gpt.GPT(cfg, seed=4).to(np.float64)
    dst = gpt_torch.GPT(cfg, seed=0).double()
    dst.load_state_dict(to_torch(src.state_dict()))
    prompt = np.array([format_prompt(tok, "五言绝句", ["江"])] * 2)
    kwargs = dict(temperature=1.0, stop=tok.eos_id)
    a = src.generate(prompt, 30, rng=np.random.default_rng(5), constraint=PoemConstraint(tok, "五言绝句", "江"),
                     **kwargs)
    b = dst.generate(torch.from_numpy(prompt), 30, rng=np.random.default_rng(5),
                     constraint=PoemConstraint(tok, "五言绝句", "江"), **kwargs)
    np.testing.assert_array_equal(a, b.numpy())
    for row in a.tolist():
        text = tok.decode(row[prompt.shape[1]: row.index(tok.eos_id)])
        check = poetry.check_poem(text, "五言绝句", ["江"])
        assert check.form.ok and check.rhyme.ok and check.tones.ok and check.keywords.ok, text


# ---- minigpt generate --strict --------------------------------------------------------------------
POEMS = ["床前明月光，疑是地上霜。举头望明月，低头思故乡。", "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
         "朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。"]


@pytest.fixture(scope="module")
def poems_ckpt(tmp_path_factory, tok):
    """A poems checkpoint after two training steps: it knows almost nothing, the constraint does the rest."""
    from minigpt.data import Corpus
    from minigpt.presets import get_preset
    from minigpt.train import train

    tok = CharTokenizer(set(tok.chars) | set("".join(POEMS)))
    ids = []
    for text in POEMS * 10:
        ids += format_prompt(tok, poetry.classify(text), [text[:2]]) + tok.encode(text) + [tok.eos_id]
    ids = np.array(ids, dtype=np.int64)
    out = tmp_path_factory.mktemp("poems")
    config = get_preset("tiny", corpus="poems", block_size=96, max_steps=2, eval_interval=2, eval_iters=1,
                        out_dir=str(out), threads=1, device="cpu")
    train(config, corpus=Corpus(ids[: len(ids) * 3 // 4], ids[len(ids) * 3 // 4 :], tok, "poems"), progress=False)
    return str(out)



def test_strict_cli_writes_a_poem_that_keeps_the_rules(capsys, poems_ckpt):
    code, out, err = run(capsys, "generate", "--checkpoint", poems_ckpt, "--form", "七律", "--keywords", "明月,江",
                         "--strict", "--num-samples", "2", "--seed", "1")
    assert code == 0, err
    poems = out.strip().split("\n---\n")
    assert len(poems) == 2 and all(len(p.splitlines()) == 4 for p in poems)  # four couplets each
    lines = err.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("[七言律诗: ok; rhyme ") for line in lines), err
    assert all("tones 100% (" in line and line.endswith("keywords 明月 江: ok]") for line in lines), err


def test_best_of_cli_prints_one_poem_per_sample_each_keeping_the_rules(capsys, poems_ckpt):
    code, out, err = run(capsys, "generate", "--checkpoint", poems_ckpt, "--form", "五绝", "--keywords", "江",
                         "--strict", "--best-of", "4", "--num-samples", "2", "--seed", "1")
    assert code == 0, err
    assert len(out.strip().split("\n---\n")) == 2 and err.count("[五言绝句: ok; rhyme ") == 2, (out, err)
    code, out, err = run(capsys, "generate", "--checkpoint", poems_ckpt, "--best-of", "0")
    assert code == 2 and "--best-of" in err and not out.strip()


def test_strict_defaults_to_a_cooler_best_of_eight(capsys, poems_ckpt):
    """--strict alone writes what --temperature 0.6 --best-of 8 writes; control: one draw at 0.8 differs."""
    args = ["generate", "--checkpoint", poems_ckpt, "--form", "七绝", "--keywords", "春风", "--strict", "--seed", "2"]
    poem = run(capsys, *args)[1]
    assert poem == run(capsys, *args, "--temperature", "0.6", "--best-of", "8")[1]
    assert poem != run(capsys, *args, "--temperature", "0.8", "--best-of", "1")[1]


@pytest.mark.parametrize("argv, needle", [
    (["--form", "五绝", "--keywords", "月,Q", "--strict"], "not in the vocabulary: 'Q'"),  # as without --strict
    (["--form", "五绝", "--keywords", "明月照大江山", "--strict"], "a line of 五言绝句 holds 5"),
    (["--form", "五绝", "--keywords", "沉啼", "--strict"], "the 平水韵 book gives no tone for 沉、啼"),
    (["--keywords", "月", "--strict"], "--strict needs --form and --keywords"),
    (["--form", "五绝", "--keywords", "月", "--strict", "--max-new-tokens", "10"], "it needs 25 new tokens"),
    (["山月白云天天", "--form", "五绝", "--keywords", "月", "--strict"], "breaks the rules of a strict 五言绝句"),
])
def test_strict_cli_errors_are_one_line_and_exit_2(capsys, poems_ckpt, argv, needle):
    code, out, err = run(capsys, "generate", "--checkpoint", poems_ckpt, *argv)
    assert code == 2 and not out.strip()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("minigpt: error: ") and needle in lines[0], err


def test_the_poems_bench_writes_free_and_strict_poems(tok):
    """benchmarks/poems.py on a random model: --strict keeps every rule, fluency and speed are measured."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    from poems import FREE, write_poems

    from minigpt.generate import poem_nll

    model = gpt_torch.GPT(GPTConfig(vocab_size=tok.vocab_size, block_size=48, n_layer=1, n_head=2, n_embd=16))
    prompts = [(form, "江", format_prompt(tok, form, ["江"])) for form in ("五言绝句", "七言绝句")]
    result = write_poems(model, tok, prompts, (FREE, 2.0))
    strict = result[2.0]["all"]
    assert strict["samples"] == 2 and strict["form"] == strict["rhyme"] == strict["keywords"] == 1.0
    assert strict["tone_share"] == 1.0 and strict["nll"] > 0 and strict["tokens_per_s"] > 0
    assert strict["repeat_share"] == 0.0 and strict["rhyme_repeated"] == 0.0  # random logits: no 叠字 either
    assert result[FREE]["五言绝句"]["samples"] == 1
    uniform = gpt_torch.GPT(GPTConfig(vocab_size=tok.vocab_size, block_size=48, n_layer=1, n_head=2, n_embd=16))
    torch.nn.init.zeros_(uniform.wte.weight)  # every logit 0: each token has probability 1/V
    assert poem_nll(uniform, [1, 2], [5, 6, 7]) == pytest.approx(np.log(tok.vocab_size))


def test_best_of_n_keeps_the_candidate_the_model_finds_most_likely(tok):
    from minigpt.generate import best_of, generate_text, poem_nll

    torch.manual_seed(0)
    model = gpt_torch.GPT(GPTConfig(vocab_size=tok.vocab_size, block_size=48, n_layer=1, n_head=2, n_embd=16)).eval()
    ids = format_prompt(tok, "五言绝句", ["江"])
    make = lambda: PoemConstraint(tok, "五言绝句", ["江"])  # noqa: E731
    kwargs = dict(max_new_tokens=30, temperature=1.0, seed=3)
    candidates = generate_text(model, tok, ids, num_samples=8, constraint=make(), **kwargs)
    losses = [poem_nll(model, ids, tok.encode(t)) for t in candidates]
    assert len(set(candidates)) > 1  # the draws differ, so choosing means something
    [(text, loss)] = best_of(model, tok, ids, 8, make_constraint=make, **kwargs)
    assert text == candidates[int(np.argmin(losses))] and loss == min(losses)
    two = best_of(model, tok, ids, 4, num_samples=2, make_constraint=make, **kwargs)
    assert [t for t, _ in two] == [min(zip(candidates[k:k + 4], losses[k:k + 4]), key=lambda c: c[1])[0]
                                   for k in (0, 4)]
