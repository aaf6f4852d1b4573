from minigpt.poetry import FREE_POSITIONS, TONE_BITS  # noqa: F401  ({5: (1, 3), 7: (1, 3, 5)}, {"平": 1, "仄": 2})
from minigpt_course.checks.poem_rules import check_fits


def my_fits(bits, pattern):
    # bits: one int per character (1 平, 2 仄, 3 either, 0 not in the book); pattern: "平平平仄仄".
    # True when every position outside FREE_POSITIONS[len(pattern)] (1-based) can take the pattern's tone;
    # a character the book does not list (0) is skipped
    return True


print(check_fits(my_fits))
