from minigpt.poetry import FREE_POSITIONS, TONE_BITS
from minigpt_course.checks.poem_rules import check_fits


def my_fits(bits, pattern):
    free = FREE_POSITIONS[len(pattern)]  # 1-based: (1, 3) or (1, 3, 5)
    for i, (b, tone) in enumerate(zip(bits, pattern), 1):
        if i in free or b == 0:  # 一三五不论; a character the book lacks is not checked
            continue
        if not b & TONE_BITS[tone]:  # bits 3 (two readings) fits either tone
            return False
    return True


def literal_135(bits, pattern):
    for i, (b, tone) in enumerate(zip(bits, pattern), 1):
        if i not in (1, 3, 5) and b and not b & TONE_BITS[tone]:
            return False
    return True


print(check_fits(my_fits))
print(check_fits(literal_135))
