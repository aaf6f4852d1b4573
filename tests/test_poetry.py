import pytest

from minigpt.poetry import FORMS, check_form, classify, format_poem, normalize_form, split_lines

JINGYESI = "床前明月光，疑是地上霜。举头望明月，低头思故乡。"  # 五言绝句
BAIDI = "朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。"  # 七言绝句
CHUNWANG = "国破山河在，城春草木深。感时花溅泪，恨别鸟惊心。烽火连三月，家书抵万金。白头搔更短，浑欲不胜簪。"
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
    assert result.ok and result and result.reason == "ok"
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
