"""The check of lesson 9's exercise passes the library's mask and names the usual wrong ones."""

import numpy as np

from minigpt_course.checks.causal_mask import check_causal_mask
from minigpt.gpt import causal_mask


def test_the_librarys_mask_passes():
    assert str(check_causal_mask(causal_mask)).startswith("causal_mask: passed")


def test_the_usual_mistakes_are_named():
    cases = {
        "hides the diagonal too": lambda T: np.triu(np.ones((T, T), dtype=bool)),
        "the table flipped": lambda T: np.tril(np.ones((T, T), dtype=bool), k=-1),
        "MAY look": lambda T: np.tril(np.ones((T, T), dtype=bool)),
        "hides nothing": lambda T: np.zeros((T, T), dtype=bool),
    }
    for hint, fn in cases.items():
        report = str(check_causal_mask(fn))
        assert "not yet" in report and "expected" in report and "got" in report and hint in report, report


def test_wrong_dtype_and_shape_are_reported():
    assert "dtype int64" in str(check_causal_mask(lambda T: np.triu(np.ones((T, T), dtype=np.int64), k=1)))
    assert "expected shape (T, T) = (5, 5), got (5,)" in str(check_causal_mask(lambda T: np.zeros(T, dtype=bool)))


def _functions(script: str) -> dict:
    import contextlib
    import io
    import runpy
    from pathlib import Path

    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(Path(__file__).resolve().parents[1] / "snippets" / "causal-mask" / script))


def test_the_starter_fails_and_the_answer_passes():
    assert "hides nothing" in str(check_causal_mask(_functions("08_ex_mask.py")["my_causal_mask"]))
    names = _functions("09_answer_mask.py")
    assert str(check_causal_mask(names["my_causal_mask"])).startswith("my_causal_mask: passed")
    assert "MAY look" in str(check_causal_mask(names["may_look"]))
