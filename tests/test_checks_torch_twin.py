"""The check of lesson 13's exercise: the starter fails naming a parameter, the answer and convert pass,
and the usual mistakes are reported in the reader's terms."""

import contextlib
import io
import runpy
from pathlib import Path

import numpy as np
import torch

from minigpt_course.checks.torch_twin import check_move_weights
from minigpt.convert import to_torch

LESSON = Path(__file__).resolve().parents[1] / "snippets" / "torch-twin"


def _functions(script: str) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return runpy.run_path(str(LESSON / script))


def test_the_starter_fails_naming_the_first_parameter():
    report = str(check_move_weights(_functions("11_ex_move_weights.py")["my_move_weights"]))
    assert report.startswith("my_move_weights: not yet")
    assert "wte.weight (69, 64): expected the numpy GPT's values" in report


def test_the_answer_and_the_library_pass():
    answer = _functions("12_answer_move_weights.py")["my_move_weights"]
    assert str(check_move_weights(answer)) == \
        "my_move_weights: passed (all 36 parameters copied; logits agree within 1e-5: True)"

    def library(numpy_gpt, torch_gpt):
        torch_gpt.load_state_dict(to_torch(numpy_gpt.state_dict()))

    assert str(check_move_weights(library)).startswith("library: passed")


def test_a_transposed_matrix_and_a_plain_tensor_are_reported():
    def transposed(numpy_gpt, torch_gpt):
        sd = numpy_gpt.state_dict()
        sd["wpe.weight"] = np.ascontiguousarray(sd["wpe.weight"].T)  # (C, block_size)
        theirs = dict(torch_gpt.named_parameters())
        with torch.no_grad():
            for name, value in sd.items():
                if theirs[name].shape == value.shape:
                    theirs[name].copy_(torch.from_numpy(value))

    assert "wpe.weight (32, 64): expected the numpy GPT's values" in str(check_move_weights(transposed))

    def float64(numpy_gpt, torch_gpt):
        torch_gpt.wte.weight = torch.nn.Parameter(torch.from_numpy(numpy_gpt.wte.weight.data.astype(np.float64)))

    report = str(check_move_weights(float64))
    assert report.startswith("float64: not yet") and "expected a float32 torch Parameter" in report
