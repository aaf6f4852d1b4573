"""minigpt workbook init and minigpt check: a new workbook, the library's code as the reader's, one classic
mistake per lesson, an empty workbook (a friendly message, never a traceback)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from minigpt import cli
from minigpt_course import workbook

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "minigpt"
PART1 = ["broadcast-matmul", "autograd", "softmax-cross-entropy", "layers-optim"]


def relative_to_flat(text: str) -> str:
    """A library module's imports as a workbook file's: ``from .tensor import`` -> ``from tensor import``."""
    return re.sub(r"^from \.(\w+) import", r"from \1 import", text, flags=re.M).replace(
        "from . import functional", "import functional")


def section(path: Path, name: str) -> str:
    text = path.read_text(encoding="utf-8")
    return text.split(f"# --8<-- [start:{name}]\n")[1].split(f"# --8<-- [end:{name}]")[0]


def function(path: Path, name: str, rename: str | None = None) -> str:
    """The top-level function ``name`` of a snippet, as text (up to the next top-level statement)."""
    text = path.read_text(encoding="utf-8")
    body = "def " + name + text.split("def " + name, 1)[1]
    lines = body.splitlines()
    end = next((i for i, line in enumerate(lines[1:], 1) if line and not line[0].isspace()), len(lines))
    out = "\n".join(lines[:end]).rstrip() + "\n"
    return out.replace("def " + name, "def " + rename, 1) if rename else out


def library_file(name: str) -> str:
    """A library module as a workbook file: its own siblings flat, the rest from minigpt."""
    text = relative_to_flat((SRC / name).read_text(encoding="utf-8"))
    return re.sub(r"^from (config|sampling) import", r"from minigpt.\1 import", text, flags=re.M)


def fill(wb: Path) -> Path:
    """Write the library's code (and the exercises' answers) into every file of the workbook ``wb``."""
    tensor = (SRC / "tensor.py").read_text(encoding="utf-8")
    tensor += "\n\n" + section(ROOT / "snippets/broadcast-matmul/broadcast.py", "broadcast_shapes")
    files = {
        "first_network.py": "import numpy as np\n\n\n" + function(
            ROOT / "snippets/first-network/08_answer_nudge.py", "grad_by_nudging"),
        "tensor.py": tensor,
        "gradcheck.py": (ROOT / "snippets/autograd/gradcheck.py").read_text(encoding="utf-8"),
        "functional.py": library_file("functional.py"),
        "nn.py": library_file("nn.py"),
        "optim.py": library_file("optim.py"),
        "data.py": (SRC / "tokenizer.py").read_text(encoding="utf-8") + "\n\nimport numpy as np\n\n\n" + function(
            ROOT / "snippets/text-to-tokens/15_answer_get_batch.py", "my_get_batch", "get_batch"),
        "lm.py": "import numpy as np\n\n\n" + function(ROOT / "snippets/bigram/13_answer_smoothing.py", "smoothed")
                 + "\n\n" + function(ROOT / "snippets/context/12_answer_concat.py", "concat_window"),
        "gpt.py": library_file("gpt.py") + "\n\n" + section(ROOT / "snippets/self-attention/one_head.py", "attention")
                  + "\n\n" + function(ROOT / "snippets/torch-twin/12_answer_move_weights.py", "my_move_weights",
                                       "move_weights").replace("):\n", "):\n    import torch\n\n", 1)
                  + "\n\n" + function(ROOT / "snippets/fast/11_answer_attention.py", "my_attention",
                                       "manual_attention").replace("):\n", "):\n    import torch\n\n", 1),
        "train.py": "import math\n\nimport numpy as np\n\nfrom minigpt.config import TrainConfig\n\n\n"
                    + section(SRC / "train.py", "lr_at")
                    + "\n\n" + function(ROOT / "snippets/scale-out/09_answer_average_gradients.py",
                                         "my_average_gradients", "average_gradients")
                    + "\n\n" + function(ROOT / "snippets/inspect/13_answer_perplexity.py", "my_perplexity", "perplexity"),
        "sampling.py": "import numpy as np\n\n\n" + function(ROOT / "snippets/sampling/08_answer_top_p.py", "my_top_p",
                                                               "top_p"),
        "tones.py": "from minigpt.poetry import FREE_POSITIONS, TONE_BITS\n\n\n" + function(
            ROOT / "snippets/poem-rules/11_answer_fits.py", "my_fits", "fits"),
        "bpe.py": function(ROOT / "snippets/bpe/11_answer_merge.py", "my_merge", "merge"),
        "gpt2.py": function(ROOT / "snippets/gpt2/08_answer_from_hf.py", "my_from_hf", "from_hf"),
    }
    for name, text in files.items():
        (wb / name).write_text(text, encoding="utf-8")
    return wb


@pytest.fixture
def library_workbook(tmp_path) -> Path:
    """A workbook whose files are the library's own code: every lesson's check must pass on it."""
    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    return fill(wb)


def run_check(capsys, *argv) -> tuple[int, str]:
    code = cli.main(["check", *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_init_creates_the_files_and_refuses_a_non_empty_folder(tmp_path, capsys):
    wb = tmp_path / "wb"
    assert cli.main(["workbook", "init", str(wb), "--lang", "zh"]) == 0
    names = sorted(p.name for p in wb.iterdir())
    assert names == sorted([name for name, *_ in workbook.files()] + ["README.md"])
    assert "第 2 (autograd) 课开始" not in (wb / "tensor.py").read_text(encoding="utf-8")  # it starts at broadcast-matmul
    assert "第 1 (broadcast-matmul) 课" in (wb / "tensor.py").read_text(encoding="utf-8")
    assert f"minigpt check first-network --workbook {wb}" in (wb / "README.md").read_text(encoding="utf-8")
    assert "练习本" in (wb / "README.md").read_text(encoding="utf-8")
    capsys.readouterr()
    before = (wb / "tensor.py").read_text(encoding="utf-8")
    (wb / "tensor.py").write_text(before + "x = 1\n", encoding="utf-8")
    assert cli.main(["workbook", "init", str(wb)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty" in err or "不是空的" in err
    assert (wb / "tensor.py").read_text(encoding="utf-8").endswith("x = 1\n")  # nothing overwritten


def test_language_from_the_locale(monkeypatch):
    for var in ("MINIGPT_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert workbook.language() == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert workbook.language() == "zh"
    assert workbook.language("en") == "en"
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert workbook.language() == "en"


@pytest.mark.parametrize("lesson", [lesson.slug for lesson in workbook.graded()])
def test_the_library_code_passes(library_workbook, capsys, lesson):
    code, out = run_check(capsys, lesson, "--workbook", str(library_workbook), "--lang", "en")
    assert code == 0, out
    assert "not yet" not in out and "Traceback" not in out


def test_check_all_is_a_table_in_course_order(library_workbook, capsys):
    code, out = run_check(capsys, "--all", "--workbook", str(library_workbook), "--lang", "en")
    assert code == 0, out
    rows = [line.split()[0] for line in out.splitlines()[1:]]
    assert [r for r in rows if r in PART1] == PART1
    assert rows.index("autograd") < rows.index("layers-optim") < rows.index("multi-head") < rows.index("storage") < rows.index("bpe")


def test_empty_workbook_says_what_is_not_written_yet(tmp_path, capsys):
    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    code, out = run_check(capsys, "autograd", "--workbook", str(wb), "--lang", "en")
    assert code == 1
    assert "tensor.py has no Tensor yet: lesson 2 (autograd) adds it" in out and "Traceback" not in out
    code, out = run_check(capsys, "storage", "--workbook", str(wb), "--lang", "zh")
    assert code == 1 and "tensor.py 里还没有 contiguous_strides：第 22 (storage) 课" in out
    code, out = run_check(capsys, "--all", "--workbook", str(wb), "--lang", "en")
    assert code == 1 and "0/1 not yet" in out and "0/2 not yet" in out


# (lesson, file, the right code, the classic mistake, what the grader says)
MISTAKES = [
    ("storage", "tensor.py", "return tuple(reversed(strides))", "return tuple(strides)", "expected"),
    ("broadcast-matmul", "tensor.py", "(1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)",
     "tuple(a) + (1,) * (n - len(a)), tuple(b) + (1,) * (n - len(b))", "expected"),
    ("autograd", "tensor.py", "g * (1.0 - out_data * out_data)", "g * (1.0 - out_data)", "expected"),
    ("autograd", "gradcheck.py", "/ (2 * eps)", "/ eps", "expected"),
    ("softmax-cross-entropy", "functional.py", "grad[rows, t[rows]] -= 1.0", "pass", "expected"),
    ("layers-optim", "optim.py", "self.buffers[i] *= self.momentum", "self.buffers[i] *= 0.0", "expected"),
    ("first-network", "first_network.py", "theta[i] -= h", "pass", "put each entry back after nudging it"),
    ("text-to-tokens", "data.py", "{c: i + len(SPECIALS) for", "{c: i for",
     "ids 0..3 belong to the special tokens"),
    ("text-to-tokens", "data.py", "return data[pos], data[pos + 1]", "return data[pos], data[pos]", "= x itself"),
    ("bigram", "lm.py", "keepdims=True) + alpha * V", "keepdims=True) + alpha", "adds alpha once"),
    ("context", "lm.py", "return e.reshape(B, k * d)", "return e.permute(0, 2, 1).reshape(B, k * d)",
     "that is e.permute(0, 2, 1) flattened"),
    ("self-attention", "gpt.py", "scores = scores * (1.0 / math.sqrt(d))", "scores = scores", "without the scale"),
    ("causal-mask", "gpt.py", "np.ones((size, size), dtype=bool), k=1)", "np.ones((size, size), dtype=bool), k=0)",
     "hides the diagonal too"),
    ("multi-head", "gpt.py", "att = att.masked_fill(causal_mask(T), -np.inf)", "att = att",
     "no causal mask: every token also sees the later ones"),
    ("block", "gpt.py", "x = x + self.attn(self.ln_1(x), kv_cache, start)  # (B, T, C)\n        return x + self.mlp",
     "x = self.attn(self.ln_1(x), kv_cache, start)  # (B, T, C)\n        return self.mlp", "no residual"),
    ("gpt", "gpt.py", "x = self.drop(tok + pos)", "x = self.drop(tok)", "no position embedding"),
    ("gpt", "gpt.py", "self.ln_f = LayerNorm(", "self.ln_final = LayerNorm(", "missing  ['ln_f.weight', 'ln_f.bias']"),
    ("gpt", "gpt.py", "logits = x @ self.wte.weight.T", "logits = Tensor(x.data) @ self.wte.weight.T",
     "these parameters have no gradient"),
    ("torch-twin", "gpt.py", "theirs[name].copy_(torch.from_numpy(p.data))", "pass",
     "expected the numpy GPT's values"),
    ("loop", "train.py", "config.lr * (step + 1) / (config.warmup_steps + 1)", "config.lr * step / config.warmup_steps",
     "step 0 gets lr 0"),
    ("kv-cache", "gpt.py", "k_buf[:, :, start:end], v_buf[:, :, start:end] = k.data, v.data",
     "k_buf[:, :, :end - start], v_buf[:, :, :end - start] = k.data, v.data", "earlier calls' tokens must still be"),
    ("sampling", "sampling.py", "before < top_p", "np.cumsum(ranked, axis=-1) <= top_p", "expected"),
    ("poem-rules", "tones.py", "if i in free or b == 0:", "if i in (1, 3, 5) or b == 0:",
     "a 五言 line frees only the 1st and 3rd"),
    ("bpe", "bpe.py", "i += 2  # both ids of the pair are used", "i += 1", "step past both ids (i += 2)"),
    ("gpt2", "gpt2.py", "return {ours + rest: tensor.t()}  # Conv1D", "return {ours + rest: tensor}  # Conv1D",
     "Conv1D stores W as (in, out)"),
    ("fast", "gpt.py", 'scores.masked_fill(~causal, float("-inf")).softmax(dim=-1)',
     "scores.masked_fill(~causal, 0.0).softmax(dim=-1)", "set to 0, not -inf"),
    ("inspect", "train.py", "float(np.exp(nll.mean()))", "float(np.exp(nll.mean(axis=1)).mean())",
     "the mean of each window's perplexity"),
]


@pytest.mark.parametrize("lesson, file, right, wrong, message", MISTAKES,
                         ids=[f"{m[0]}-{i}" for i, m in enumerate(MISTAKES)])
def test_a_classic_mistake_fails_with_the_graders_message(library_workbook, capsys, lesson, file, right, wrong,
                                                         message):
    path = library_workbook / file
    text = path.read_text(encoding="utf-8")
    assert right in text, f"{file} no longer has {right!r}: update this test"
    path.write_text(text.replace(right, wrong), encoding="utf-8")
    code, out = run_check(capsys, lesson, "--workbook", str(library_workbook), "--lang", "en")
    assert code == 1, out
    assert "[not yet]" in out and message in out and "Traceback" not in out


def test_accumulation_with_equals_is_caught(library_workbook, capsys):
    """``x.grad = g`` instead of ``+=``: tanh(x) + tanh(x) must double x's gradient."""
    path = library_workbook / "tensor.py"
    text = path.read_text(encoding="utf-8")
    body = text.split("def _accumulate")[1].split("\n    def ")[0]
    wrong = "(self, g: np.ndarray) -> None:\n        self.grad = np.asarray(g, dtype=self.data.dtype).copy()\n"
    path.write_text(text.replace(body, wrong), encoding="utf-8")
    code, out = run_check(capsys, "autograd", "--workbook", str(library_workbook), "--lang", "en")
    assert code == 1 and "[not yet] Tensor.tanh" in out, out


def test_a_readers_exception_is_their_file_and_line(tmp_path, capsys):
    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    (wb / "tensor.py").write_text("def contiguous_strides(shape):\n    return 1 / 0\n", encoding="utf-8")
    code, out = run_check(capsys, "storage", "--workbook", str(wb), "--lang", "en")
    assert code == 1 and "ZeroDivisionError: division by zero (line 2 of tensor.py: return 1 / 0)" in out, out
    assert "Traceback" not in out
    (wb / "tensor.py").write_text("def contiguous_strides(shape)\n", encoding="utf-8")  # a syntax error
    code, out = run_check(capsys, "storage", "--workbook", str(wb), "--lang", "en")
    assert code == 1 and "tensor.py does not import: tensor.py:1: SyntaxError" in out, out


def test_no_module_leaks_between_checks(tmp_path, library_workbook, capsys):
    empty = tmp_path / "empty"
    workbook.init(empty, "en")
    assert run_check(capsys, "autograd", "--workbook", str(library_workbook), "--lang", "en")[0] == 0
    assert "tensor" not in sys.modules or not str(getattr(sys.modules["tensor"], "__file__", "")).startswith(
        str(tmp_path))
    code, out = run_check(capsys, "autograd", "--workbook", str(empty), "--lang", "en")
    assert code == 1 and "no Tensor yet" in out


def test_bad_arguments_are_one_line(tmp_path, capsys):
    assert cli.main(["check", "nosuch", "--workbook", str(tmp_path)]) == 2
    assert "unknown lesson 'nosuch'" in capsys.readouterr().err
    assert cli.main(["check", "--workbook", str(tmp_path)]) == 2
    assert cli.main(["check", "storage", "--workbook", str(tmp_path / "missing")]) == 2
    assert "minigpt workbook init" in capsys.readouterr().err


def test_an_exception_in_a_class_is_what_was_expected_beside_the_error(library_workbook, capsys):
    """A reader's class that raises gets expected vs got with their line, never a traceback (control: none raises)."""
    path = library_workbook / "gpt.py"
    text = path.read_text(encoding="utf-8")
    right = "        x = x + self.attn(self.ln_1(x), kv_cache, start)  # (B, T, C)\n"
    assert right in text
    path.write_text(text.replace(right, right + "        x = x @ x\n"), encoding="utf-8")
    code, out = run_check(capsys, "block", "--workbook", str(library_workbook), "--lang", "en")
    assert code == 1 and "Traceback" not in out, out
    assert "expected block(x): (B, T, C)" in out and "got      ValueError" in out and "of gpt.py: x = x @ x" in out, out
    path.write_text(text, encoding="utf-8")
    assert run_check(capsys, "block", "--workbook", str(library_workbook), "--lang", "en")[0] == 0


def test_reports_in_chinese_translate_the_shared_words(tmp_path, capsys):
    wb = tmp_path / "wb"
    workbook.init(wb, "en")
    (wb / "tensor.py").write_text("def contiguous_strides(shape):\n    return 1 / 0\n", encoding="utf-8")
    code, out = run_check(capsys, "storage", "--workbook", str(wb), "--lang", "zh")
    assert code == 1 and "[还没通过] contiguous_strides\n" in out and "还没通过：" not in out, out  # said once
    assert "\n      期望     contiguous_strides(shape)" in out and "（tensor.py 第 2 行：return 1 / 0）" in out, out
    code, out = run_check(capsys, "storage", "--workbook", str(wb), "--lang", "en")  # control: English as written
    assert "期望" not in out and "\n      expected contiguous_strides(shape)" in out and "(line 2 of tensor.py:" in out, out


def test_every_section_to_reread_exists_in_both_languages():
    from minigpt_course import lessons

    pages = {lesson.slug: lesson.page for lesson in lessons.lessons(ROOT)}
    declared = workbook.graded()
    assert {lesson.slug for lesson in declared} <= set(pages)
    for lesson in declared:
        for check in lesson.checks:
            for lang in ("zh", "en"):
                text = (ROOT / "docs" / lang / pages[lesson.slug]).read_text(encoding="utf-8")
                assert f"{{ #{check.reread} }}" in text, f"{lang}/{pages[lesson.slug]} has no #{check.reread} ({check.name})"
    assert "{ #no-such-section }" not in (ROOT / "docs" / "en" / pages["bigram"]).read_text(encoding="utf-8")


def test_a_failing_check_says_which_section_to_reread(library_workbook, capsys):
    path = library_workbook / "lm.py"
    path.write_text(path.read_text(encoding="utf-8").replace("keepdims=True) + alpha * V", "keepdims=True) + alpha"),
                    encoding="utf-8")
    code, out = run_check(capsys, "bigram", "--workbook", str(library_workbook), "--lang", "en")
    assert code == 1 and "reread: lesson 6 (bigram), “What an unseen pair costs” (#unseen)" in out, out  # its title
    code, out = run_check(capsys, "bigram", "--workbook", str(library_workbook), "--lang", "zh")
    assert "重读：第 6 (bigram) 课「没见过的组合要付出什么代价」一节（#unseen）" in out, out
    code, out = run_check(capsys, "context", "--workbook", str(library_workbook), "--lang", "en")
    assert code == 0 and "reread" not in out  # control: a passing check sends nobody back
