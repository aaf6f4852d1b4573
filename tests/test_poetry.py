import os
import time

import pytest
import variants as variants_tool  # tools/, on the path by pyproject.toml's pythonpath

from minigpt import poetry, rhyme
from minigpt.poetry import (
    FORMS,
    FREE,
    FormCheck,
    baseline,
    check_form,
    check_keywords,
    check_poem,
    check_rhyme,
    check_tones,
    classify,
    format_poem,
    normalize_form,
    parse_keywords,
    rhyme_lines,
    split_lines,
    tone_patterns,
)

JINGYESI = "床前明月光，疑是地上霜。举头望明月，低头思故乡。"  # 五言绝句
BAIDI = "朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。"  # 七言绝句
CHUNWANG = "国破山河在，城春草木深。感时花溅泪，恨别鸟惊心。烽火连三月，家书抵万金。白头搔更短，浑欲不胜簪。"
DENGGUANQUE = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"  # 五言绝句, regulated
JIANGXUE = "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。"  # rhymes in 仄声: not regulated
DENGGAO = ("风急天高猿啸哀，渚清沙白鸟飞回。无边落木萧萧下，不尽长江滚滚来。"
           "万里悲秋常作客，百年多病独登台。艰难苦恨繁霜鬓，潦倒新停浊酒杯。")


def test_forms_table():
    assert FORMS == {"五言绝句": (4, 5), "七言绝句": (4, 7), "五言律诗": (8, 5), "七言律诗": (8, 7)}


@pytest.mark.parametrize(
    "text, form",
    [(JINGYESI, "五言绝句"), (BAIDI, "七言绝句"), (CHUNWANG, "五言律诗"), (DENGGAO, "七言律诗")],
)
def test_famous_poems_classify(text, form):
    assert classify(text) == form
    result = check_form(text, form)
    assert result.ok and result.reason == "ok"
    for other in FORMS:
        if other != form:
            assert not check_form(text, other).ok


def test_a_line_is_half_a_couplet():
    assert split_lines(JINGYESI) == ["床前明月光，", "疑是地上霜。", "举头望明月，", "低头思故乡。"]
    assert split_lines("床前明月光，疑是") == ["床前明月光，", "疑是"]


def test_whitespace_and_newlines_are_ignored():
    assert classify("床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n") == "五言绝句"
    assert format_poem(JINGYESI) == "床前明月光，疑是地上霜。\n举头望明月，低头思故乡。"


def test_wrong_number_of_lines():
    result = check_form(JINGYESI, "五言律诗")
    assert not result.ok
    assert "8 lines" in result.reason and "4" in result.reason


def test_wrong_characters_per_line():
    result = check_form("床前明月光，疑是地上霜。举头望明，低头思故乡。", "五言绝句")
    assert not result.ok
    assert "line 3" in result.reason and "4 characters" in result.reason and "5" in result.reason


def test_punctuation_pattern():
    result = check_form("床前明月光。疑是地上霜。举头望明月，低头思故乡。", "五言绝句")
    assert not result.ok and "line 1" in result.reason and "，" in result.reason
    result = check_form("床前明月光，疑是地上霜，举头望明月，低头思故乡。", "五言绝句")
    assert not result.ok and "line 2" in result.reason and "。" in result.reason
    result = check_form("床前明月光，疑是地上霜。举头望明月，低头思故乡", "五言绝句")
    assert not result.ok and "line 4" in result.reason and "no punctuation" in result.reason
    # a question may close either line of a couplet
    assert check_form("床前明月光，疑是地上霜？举头望明月？低头思故乡。", "五言绝句").ok


def test_non_words_inside_a_line():
    result = check_form("床前明月a，疑是地上霜。举头望明月，低头思故乡。", "五言绝句")
    assert not result.ok and "line 1" in result.reason


def test_classify_none_for_free_verse():
    assert classify("白日依山尽，黄河入海流。") is None
    assert classify("君不见黄河之水天上来，奔流到海不复回。") is None
    assert classify("") is None
    mixed = "床前明月光，疑是地上霜。举头望明月，低头思念我的故乡。"
    assert classify(mixed) is None


def test_form_names_and_aliases():
    assert normalize_form("七绝") == "七言绝句"
    assert normalize_form("wulv") == "五言律诗"
    assert check_form(JINGYESI, "五绝").ok
    with pytest.raises(ValueError) as e:
        check_form(JINGYESI, "宋词")
    for form in FORMS:
        assert form in str(e.value)
    with pytest.raises(TypeError, match="text"):
        check_form(None, "五绝")


def test_truthiness_is_not_a_check_result():
    assert "__bool__" not in FormCheck.__dict__  # read .ok


# --------------------------------------------------------------------------- tone patterns


def test_textbook_patterns():
    wujue = {p.name: p.lines for p in tone_patterns("五绝")}
    assert list(wujue) == ["仄起首句不入韵", "仄起首句入韵", "平起首句不入韵", "平起首句入韵"]
    assert wujue["仄起首句不入韵"] == ("仄仄平平仄", "平平仄仄平", "平平平仄仄", "仄仄仄平平")
    assert wujue["平起首句入韵"] == ("平平仄仄平", "仄仄仄平平", "仄仄平平仄", "平平仄仄平")
    qijue = {p.name: p.lines for p in tone_patterns("七绝")}
    assert qijue["平起首句入韵"] == ("平平仄仄仄平平", "仄仄平平仄仄平", "仄仄平平平仄仄", "平平仄仄仄平平")
    assert qijue["仄起首句入韵"] == ("仄仄平平仄仄平", "平平仄仄仄平平", "平平仄仄平平仄", "仄仄平平仄仄平")


@pytest.mark.parametrize("form", list(FORMS))
def test_patterns_follow_dui_and_nian(form):
    n_lines, n_chars = FORMS[form]
    patterns = tone_patterns(form)
    assert len(patterns) == 4
    for p in patterns:
        assert len(p.lines) == n_lines and all(len(line) == n_chars for line in p.lines)
        for i in range(1, n_lines):
            a, b = p.lines[i - 1], p.lines[i]
            for k in range(1, n_chars - 1, 2):  # positions 2, 4 (, 6): the ones that alternate
                assert (a[k] != b[k]) if i % 2 else (a[k] == b[k]), (p.name, i, k)  # 对, then 粘
            assert b[-1] == ("平" if i % 2 else "仄")  # even lines end 平, odd lines after the first 仄
        assert p.rhyme_lines == (((1,) if p.lines[0][-1] == "平" else ()) + rhyme_lines(form))
        assert p.name.startswith(p.lines[0][1] + "起")
        free = (1, 3) if n_chars == 5 else (1, 3, 5)  # 一三五不论
        for line, required in zip(p.lines, p.required):
            assert required == "".join(FREE if i in free else t for i, t in enumerate(line, 1))
    if n_lines == 8:  # a lüshi is its jueju's pattern, then the 首句不入韵 jueju of the same 起
        jueju = {p.name: p.lines for p in tone_patterns(form.replace("律诗", "绝句"))}
        for p in patterns:
            assert p.lines[:4] == jueju[p.name]
            assert p.lines[4:] == jueju[p.name[:2] + "首句不入韵"]


def test_rhyme_lines():
    assert rhyme_lines("五绝") == (2, 4)
    assert rhyme_lines("七言律诗") == (2, 4, 6, 8)


# --------------------------------------------------------------------------- rhyme


def test_jingyesi_rhymes_in_yang():
    r = check_rhyme(JINGYESI, "五绝")  # 光/霜/乡
    assert r.ok and r.group == "下平声七阳" and r.first_line and r.reason == "ok"


@pytest.mark.parametrize("text, form, group, first", [
    (DENGGUANQUE, "五言绝句", "下平声十一尤", False),  # 流/楼
    (BAIDI, "七言绝句", "上平声十五删", True),  # 间/还/山
    (CHUNWANG, "五言律诗", "下平声十二侵", False),  # 深/心/金/簪
    (DENGGAO, "七言律诗", "上平声十灰", True),  # 哀/回/来/台/杯
], ids=["dengguanque", "baidi", "chunwang", "denggao"])
def test_famous_poems_rhyme(text, form, group, first):
    r = check_rhyme(text, form)
    assert (r.ok, r.group, r.first_line) == (True, group, first)


def test_a_poem_that_does_not_rhyme_fails_naming_the_line():
    r = check_rhyme("床前明月光，疑是地上霜。举头望明月，低头思故人。", "五绝")
    assert not r.ok and r.group is None
    assert "line 4" in r.reason and "人" in r.reason and "上平声十一真" in r.reason and "下平声七阳" in r.reason


def test_neighbouring_groups_do_not_rhyme():
    r = check_rhyme("胡风迎马首，汉月学蛾眉。久戍人将老，长征马不肥。", "五绝")  # 眉 支, 肥 微: 邻韵
    assert not r.ok and "上平声四支" in r.reason and "上平声五微" in r.reason


def test_a_ze_rhyme_poem_is_not_regulated():
    r = check_rhyme(JIANGXUE, "五绝")  # 绝/灭/雪
    assert not r.ok and r.group == "入声九屑" and r.first_line
    assert "仄声" in r.reason and "平声" in r.reason


def test_line_one_may_end_outside_the_group():
    r = check_rhyme("床前看月明，疑是地上霜。举头望明月，低头思故乡。", "五绝")  # 明: 庚, 平
    assert r.ok and r.group == "下平声七阳" and not r.first_line


def test_an_unknown_character_at_a_rhyme_fails_naming_it():
    assert not rhyme.is_known("𠀀")
    r = check_rhyme("床前明月光，疑是地上霜。举头望明月，低头思故𠀀。", "五绝")
    assert not r.ok and "line 4" in r.reason and "𠀀" in r.reason and "does not list" in r.reason


def test_a_character_in_several_groups_rhymes_with_any():
    assert len(rhyme.groups("望")) > 1  # 阳 and 漾
    assert check_rhyme("床前明月光，疑是地上霜。举头望明月，低头思故望。", "五绝").ok


def test_checks_need_the_forms_shape():
    with pytest.raises(ValueError, match="not a 五言律诗.*8 lines"):
        check_rhyme(JINGYESI, "五律")
    with pytest.raises(ValueError, match="not a 七言绝句"):
        check_tones(JINGYESI, "七绝")


# --------------------------------------------------------------------------- tones


@pytest.mark.parametrize("text, form, pattern", [
    (DENGGUANQUE, "五绝", "仄起首句不入韵"),
    (BAIDI, "七绝", "平起首句入韵"),
    (CHUNWANG, "五律", "仄起首句不入韵"),
    (DENGGAO, "七律", "仄起首句入韵"),
], ids=["dengguanque", "baidi", "chunwang", "denggao"])
def test_regulated_poems_follow_their_pattern(text, form, pattern):
    t = check_tones(text, form)
    n_lines, n_chars = FORMS[normalize_form(form)]
    fixed = n_lines * (n_chars - len((1, 3) if n_chars == 5 else (1, 3, 5)))
    assert (t.ok, t.share, t.pattern, t.mismatches) == (True, 1.0, pattern, ())
    assert t.checked + t.unknown == fixed


def test_jingyesi_is_not_regulated():
    # best: 平起首句入韵 平平仄仄平/仄仄仄平平/仄仄平平仄/平平仄仄平; 上 (line 2, 4th) and 头 (line 3, 2nd) break it
    t = check_tones(JINGYESI, "五绝")
    assert not t.ok and t.pattern == "平起首句入韵"
    assert (t.matched, t.checked, t.unknown) == (10, 12, 0) and t.share == 10 / 12
    assert t.mismatches == ((2, 4), (3, 2))


def test_free_positions_are_not_checked():
    # 白日依山尽 -> 平日平山尽: positions 1 and 3 changed tone, still regulated
    assert check_tones("平日平山尽，黄河入海流。欲穷千里目，更上一层楼。", "五绝").ok


def test_a_character_of_both_tones_matches_either():
    assert rhyme.tones("看") == {"平", "仄"}
    # 日 (仄) and 河 (平) at fixed positions both become 看
    assert check_tones("白看依山尽，黄看入海流。欲穷千里目，更上一层楼。", "五绝").ok


def test_unknown_characters_are_skipped_and_counted():
    t = check_tones("白𠀀依山尽，黄河入海流。欲穷千里目，更上一层楼。", "五绝")
    assert (t.ok, t.matched, t.checked, t.unknown) == (True, 11, 11, 1)


def test_a_tie_follows_the_rhyme():
    # 间 is 平 (删) and 仄 (谏): both 平起 patterns match; line 1 rhymes, so 首句入韵
    assert check_tones(BAIDI, "七绝").pattern == "平起首句入韵"


# --------------------------------------------------------------------------- keywords, all checks


def test_keywords_found_and_missing():
    k = check_keywords(JINGYESI, ["月", "江", "明月"])
    assert (k.ok, k.found, k.missing) == (False, ("月", "明月"), ("江",))
    assert check_keywords(JINGYESI, "月,故乡").ok
    assert check_keywords(JINGYESI, []).ok
    assert not check_keywords(JINGYESI, "光疑").ok  # across a line break is not inside a line
    assert parse_keywords("月，江、 霜") == ("月", "江", "霜")
    with pytest.raises(TypeError, match="keywords"):
        check_keywords(JINGYESI, [1])
    with pytest.raises(ValueError, match="keywords"):
        check_keywords(JINGYESI, ["月", " "])


def test_check_poem_runs_every_check():
    c = check_poem(DENGGUANQUE, "五绝", "河,江")
    assert c.form.ok and c.rhyme.ok and c.tones.ok
    assert c.keywords.found == ("河",) and c.keywords.missing == ("江",)
    off = check_poem(JINGYESI, "七绝", ["月"])
    assert not off.form.ok and off.rhyme is None and off.tones is None and off.keywords.ok


# --------------------------------------------------------------------------- the real-poem baseline


def test_baseline_of_a_few_poems():
    from minigpt.data import Poem

    poems = [Poem("", "", tuple(split_lines(t)), classify(t)) for t in (JINGYESI, DENGGUANQUE, JIANGXUE, CHUNWANG)]
    poems.append(Poem("", "", ("君不见黄河之水天上来，",), None))  # no form: skipped
    b = baseline(poems)
    assert set(b) == {"五言绝句", "五言律诗"}
    w = b["五言绝句"]
    assert (w.poems, w.form_ok, w.rhyme_any, w.rhyme_ok, w.first_line) == (3, 1.0, 1.0, 2 / 3, 0.5)
    assert w.tones_ok == 1 / 3 and w.unknown == 0.0
    assert baseline(poems, seed=3) == baseline(poems, seed=3)


@pytest.fixture(scope="module")
def corpus_baseline():
    if not os.environ.get("MINIGPT_DATA", "").strip():
        pytest.fail("MINIGPT_DATA is not set: point it at the data folder, e.g. MINIGPT_DATA=../shared/data")
    from minigpt.data import load_poems

    poems = load_poems()
    start = time.perf_counter()
    result = baseline(poems)
    return result, time.perf_counter() - start


@pytest.mark.parametrize("form", list(FORMS))
def test_real_poems_baseline(corpus_baseline, form):
    result, seconds = corpus_baseline
    b = result[form]
    print(f"{form}: {b} ({seconds:.1f} s for all forms)")
    assert b.poems > 3000 and b.form_ok == 1.0
    # a broken rhyme table (or t2s mapping) would leave far fewer real poems rhyming
    assert 0.80 <= b.rhyme_any <= 0.97
    assert 0.65 <= b.rhyme_ok <= b.rhyme_any  # 五绝 has many 仄韵 古绝
    assert b.rhyme_chance < min(0.15, b.rhyme_ok / 4)  # shuffled endings rhyme far less often
    assert 0.85 <= b.tone_share <= 0.99 and b.tone_chance < b.tone_share - 0.15
    assert 0.40 <= b.tones_ok <= 0.95
    assert b.unknown < 0.02
    if form.startswith("七言"):  # 七言 usually rhymes in line 1, 五言 usually not
        assert b.first_line > 0.6
    else:
        assert b.first_line < 0.3


def test_repeats_are_counted_anywhere_as_reduplication_and_at_the_rhyme():
    r = poetry.check_repeats("萧萧萧花开，花落水东流。花月千千里，江流水东流。")
    # 萧 twice more (both 叠字), 花 twice, 千 once (叠字), 水 东 流 once each, 流 at the rhyme again
    assert (r.chars, r.repeated, r.doubled, r.rhyme_repeated) == (20, 9, 3, 1)
    assert r.share == pytest.approx(9 / 20)
    real = poetry.check_repeats("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。")
    assert (real.repeated, real.share) == (0, 0.0)
    assert poetry.check_repeats("").share == 0.0
    with pytest.raises(TypeError, match="text must be a str"):
        poetry.check_repeats(None)


def test_a_variant_form_repeats_its_character():
    """鴈 is 雁 in another form (OpenCC's t2s keeps it): the second goose is a repeat, at the rhyme too."""
    assert poetry.standard("鴈") == "雁" and poetry.standard("疎") == "疏" and poetry.standard("月") == "月"
    r = poetry.check_repeats("秋雁过江月，寒鴈入楚云。")
    assert (r.chars, r.repeated, r.doubled) == (10, 1, 0)
    assert poetry.check_repeats("山远人烟疏，江寒客梦疎。").rhyme_repeated == 0  # line 1 is not a rhyme line
    assert poetry.check_repeats("白云横野径，松下客来疏。流水空山外，寒林落叶疎。").rhyme_repeated == 1


def test_the_variant_table_maps_non_standard_forms_to_standard_ones():
    """variants.txt (tools/variants.py, from Unihan): each entry leads from a form outside GB2312 to one
    inside it, never on to a further variant, and the goose and 疏 are there."""
    table = poetry.variants()
    assert len(table) > 300 and table["鴈"] == "雁" and table["疎"] == "疏"
    for variant, standard in table.items():
        assert not variants_tool.is_standard(variant) and variants_tool.is_standard(standard), (variant, standard)
        assert standard not in table and poetry.is_han(variant + standard)
    assert "座" not in table and "希" not in table  # two standard characters are two words


def test_the_variant_tool_keeps_z_variants_and_mutual_semantic_ones():
    from collections import Counter

    unihan = "\n".join([
        "# Unicode version: 10.0.0",
        "U+9D08\tkZVariant\tU+96C1",  # 鴈 -> 雁, the same character
        "U+758E\tkSemanticVariant\tU+758F<kFenn",  # 疎 -> 疏, and back: kept
        "U+758F\tkSemanticVariant\tU+758E<kFenn",
        "U+5213\tkSemanticVariant\tU+56ED<kMatthews",  # 刓 -> 园 and back: NOT_THE_SAME
        "U+56ED\tkSemanticVariant\tU+5213<kMatthews",
        "U+7BB8\tkSemanticVariant\tU+7B6F<kMatthews",  # 箸 (standard itself) -> 筯: no
        "U+9E1D\tkSemanticVariant\tU+96C1",  # a form the poems never write: no
    ])
    counts = Counter("雁鴈疏疎园刓箸筯")
    assert variants_tool.table(variants_tool.parse(unihan), counts) == {"鴈": "雁", "疎": "疏"}


def test_the_doubles_table_is_what_the_poems_double():
    """doubles.txt is tools/doubles.py's output for this corpus: the 叠字 words are in it (萧萧, 悠悠, 年年), the
    pairs no poem writes as a word (别别, 乡乡) are not."""
    import doubles as doubles_tool  # tools/

    if not os.environ.get("MINIGPT_DATA", "").strip():
        pytest.fail("MINIGPT_DATA is not set: point it at the data folder, e.g. MINIGPT_DATA=../shared/data")
    from minigpt.data import load_poems

    counted = doubles_tool.count(p for p in load_poems() if p.form is not None)
    assert doubles_tool.render(counted) == doubles_tool.OUT.read_text(encoding="utf-8")
    assert {"萧", "悠", "年"} <= poetry.doubles() and not {"别", "乡"} & poetry.doubles()
    assert doubles_tool.count([type("P", (), {"lines": ("萧萧风起，", "落落别别。")})]) == {"萧": 1, "落": 1, "别": 1}


def test_the_rare_rhymes_table_is_what_the_poems_rhyme():
    """rare_rhymes.txt is tools/rare_rhymes.py's output for this corpus: the book lists 逢 in 三江, and no poem
    rhymes it there; a poem that does rhymes by a rare reading, a poem that rhymes 逢 with 冬 does not."""
    import rare_rhymes as rare_tool  # tools/

    if not os.environ.get("MINIGPT_DATA", "").strip():
        pytest.fail("MINIGPT_DATA is not set: point it at the data folder, e.g. MINIGPT_DATA=../shared/data")
    from minigpt.data import load_poems

    rows = rare_tool.rare(*rare_tool.count(p for p in load_poems() if p.form is not None))
    assert rare_tool.render(rows) == rare_tool.OUT.read_text(encoding="utf-8")
    assert ("逢", "上平声三江") in poetry.rare_rhymes() and ("逢", "上平声二冬") not in poetry.rare_rhymes()
    assert poetry.rhymes_by_a_rare_reading("故乡春草绿，一去不相逢。别后无归客，今朝又渡江。", "五言绝句")
    assert not poetry.rhymes_by_a_rare_reading("故乡春草绿，一去不相逢。别后无归客，今朝又过冬。", "五言绝句")
    assert not poetry.rhymes_by_a_rare_reading("故乡春草绿。", "五言绝句")  # not the form: no rhyme to judge
