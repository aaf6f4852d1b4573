"""The check of lesson 17's exercise passes a right rule for one line, agrees with minigpt.poetry's tone check,
and names each usual mistake, the reader's own errors included."""

import numpy as np
import pytest

from minigpt.poetry import FREE, FREE_POSITIONS, TONE_BITS, check_tones, split_lines, tone_bits, tone_patterns
from minigpt_course.checks.poem_rules import CASES, MISTAKES, check_fits, reference


def right(bits, pattern):
    free = FREE_POSITIONS[len(pattern)]
    return all(b == 0 or i in free or bool(b & TONE_BITS[t]) for i, (b, t) in enumerate(zip(bits, pattern), 1))


def test_a_right_rule_passes_and_a_numpy_bool_is_a_bool():
    assert str(check_fits(right)).startswith("right: passed")
    assert ": passed" in str(check_fits(lambda bits, pattern: np.all([right(bits, pattern)])))


@pytest.mark.parametrize("what,line,bits,pattern", CASES, ids=[c[1] for c in CASES])
def test_the_cases_bits_are_the_rhyme_books(what, line, bits, pattern):
    assert tuple(tone_bits().get(c, 0) for c in line) == bits


@pytest.mark.parametrize("form", ["五言绝句", "七言律诗"])
def test_the_reference_frees_the_positions_check_tones_frees(form):
    """Every pattern line against every combination of tones at one position: reference agrees with the
    pattern's ``required`` (中 at the free positions), which check_tones reads."""
    for p in tone_patterns(form):
        for line, required in zip(p.lines, p.required):
            for j in range(len(line)):
                for b in (0, 1, 2, 3):
                    bits = [TONE_BITS[t] for t in line]
                    bits[j] = b
                    want = required[j] == FREE or b == 0 or bool(b & TONE_BITS[required[j]])
                    assert reference(bits, line) == want, (form, line, j, b)


def test_the_reference_passes_every_line_of_a_poem_that_check_tones_passes():
    poem = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"
    tones = check_tones(poem, "五言绝句")
    pattern = next(p for p in tone_patterns("五言绝句") if p.name == tones.pattern)
    bits = tone_bits()
    assert tones.ok
    assert all(reference([bits.get(c, 0) for c in line[:-1]], want)
               for line, want in zip(split_lines(poem), pattern.lines))
    assert not reference([bits[c] for c in "黄河入海尽"], pattern.lines[1])  # control: 流 -> 尽 (仄) breaks it


@pytest.mark.parametrize("key", list(MISTAKES))
def test_each_usual_mistake_is_named(key):
    report = check_fits(MISTAKES[key])
    assert "not yet" in str(report) and f"poem_rules.{key}" in report.keys, (key, str(report))


def test_the_mistakes_answer_differently():
    answers = {key: tuple(wrong(bits, pattern) for _, _, bits, pattern in CASES) for key, wrong in MISTAKES.items()}
    answers["right"] = tuple(reference(bits, pattern) for _, _, bits, pattern in CASES)
    assert len(set(answers.values())) == len(answers)


def test_the_readers_error_is_reported_with_its_line():
    def broken(bits, pattern):
        return bits[7] == 1
    report = str(check_fits(broken))
    assert report.startswith("broken: not yet") and "IndexError" in report and "line " in report
    assert "expected True" in report


def test_not_a_bool_is_named():
    assert "return True or False" in str(check_fits(lambda bits, pattern: "yes"))


def test_the_starter_is_told_it_says_true_to_everything():
    report = str(check_fits(lambda bits, pattern: True))
    assert "says True to every line" in report and "黄河入海尽" in report


def test_the_chinese_report_names_the_mistake():
    assert "五言的第五字是句末" in check_fits(MISTAKES["literal_135"]).render("zh")
