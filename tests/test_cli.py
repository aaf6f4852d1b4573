"""The minigpt command: --help everywhere, one-line errors with the right exit codes, generate, lesson."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from minigpt import poetry
from minigpt.data import KEYWORD_SEP, Corpus
from minigpt.presets import get_preset
from minigpt.tokenizer import CharTokenizer
from minigpt.train import train

from cli_run import run

POEMS = [  # (form, keywords, text)
    ("五言绝句", ["明月"], "床前明月光，疑是地上霜。举头望明月，低头思故乡。"),
    ("五言绝句", ["黄河", "楼"], "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"),
    ("五言绝句", ["花"], "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。"),
    ("五言绝句", ["江", "雪"], "千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。"),
    ("七言绝句", ["江陵"], "朝辞白帝彩云间，千里江陵一日还。两岸猿声啼不住，轻舟已过万重山。"),
    ("七言绝句", ["月", "江"], "月落乌啼霜满天，江枫渔火对愁眠。姑苏城外寒山寺，夜半钟声到客船。"),
]

ROOT = Path(__file__).resolve().parents[1]


def poem_corpus() -> Corpus:
    """Six famous poems, encoded as the data module does: <bos> form <sep> keywords <sep> poem <eos>."""
    tok = CharTokenizer(set("".join(p for *_, p in POEMS) + "".join(poetry.FORMS) + poetry.LINE_ENDS + KEYWORD_SEP))
    ids = []
    for form, keywords, text in POEMS * 20:
        ids += ([tok.bos_id] + tok.encode(form) + [tok.sep_id] + tok.encode(KEYWORD_SEP.join(keywords))
                + [tok.sep_id] + tok.encode(text) + [tok.eos_id])
    ids = np.array(ids, dtype=np.int64)
    return Corpus(ids[: len(ids) * 9 // 10], ids[len(ids) * 9 // 10 :], tok, "poems")


@pytest.fixture(scope="module")
def poems_ckpt(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("poems")
    config = get_preset("tiny", corpus="poems", block_size=64, max_steps=60, eval_interval=60, eval_iters=2,
                        out_dir=str(out), threads=1, device="cpu")
    train(config, corpus=poem_corpus(), progress=False)
    return out



def assert_one_line_error(err: str, *needles: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "error:" in lines[0] and "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.mark.parametrize("argv", [[], ["data"], ["data", "download"], ["data", "verify"], ["data", "info"],
                                  ["train"], ["generate"], ["lesson"]])
def test_help_everywhere(capsys, argv):  # minigpt bench --help: tests/test_bench.py
    code, out, _ = run(capsys, *argv, "--help")
    assert code == 0 and "usage: minigpt" in out


def test_python_dash_m_works():
    done = subprocess.run([sys.executable, "-m", "minigpt", "train", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "shakespeare-cpu" in done.stdout and "--resume" in done.stdout


@pytest.mark.parametrize("argv, needle", [
    (["train", "--max-steps", "-3"], "--max-steps"),
    (["train", "--preset", "huge"], "invalid choice: 'huge'"),
    (["train", "--engine", "jax"], "--engine"),
    (["train", "--lr", "fast"], "--lr"),
    (["train", "--beta1", "1"], "argument --beta1: must be in [0, 1), got '1'"),
    (["train", "--preset", "tiny", "--n-head", "3"], "n_head=3: each head needs an equal share of the width; "
                                                     "n_head can be 1, 2, 4, 8, 16, 32 or 64"),
    (["generate", "--top-p", "1.5"], "argument --top-p: top_p must be in (0, 1], got '1.5'"),
    (["generate", "--top-p", "0"], "argument --top-p: top_p must be in (0, 1], got '0'"),
    (["generate", "--temperature", "-1"], "--temperature"),
    (["lesson", "no-such-lesson"], "unknown lesson 'no-such-lesson'; available:"),
    (["nonsense"], "invalid choice"),
    ([], "required"),
])
def test_bad_arguments_exit_2_with_one_line(capsys, argv, needle):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert_one_line_error(err, needle)


def test_generate_a_poem_from_form_and_keywords(capsys, poems_ckpt):
    code, out, err = run(capsys, "generate", "--checkpoint", str(poems_ckpt), "--form", "五绝", "--keywords", "月,江",
                         "--seed", "3", "--num-samples", "2")
    assert code == 0, err
    samples = out.strip().split("\n---\n")
    assert len(samples) == 2 and all(s.strip() for s in samples)
    assert set(out) - set("\n-") <= set(poem_corpus().tokenizer.chars)  # no special token names leak
    assert err.count("[五言绝句: ") == 2  # a form check per sample
    code2, out2, _ = run(capsys, "generate", "--out", str(poems_ckpt), "--form", "五言绝句", "--keywords", "月 江",
                         "--seed", "3", "--num-samples", "2", "--no-cache", "--top-p", "0.9", "--top-k", "20")
    assert code2 == 0 and out2.strip()


def test_cached_and_uncached_generation_agree(capsys, poems_ckpt):
    argv = ["generate", "--checkpoint", str(poems_ckpt), "--form", "七绝", "--keywords", "江", "--temperature", "0"]
    _, cached, _ = run(capsys, *argv)
    _, uncached, _ = run(capsys, *argv, "--no-cache")
    assert cached == uncached and cached.strip()


def test_generate_says_when_training_has_not_finished(capsys, poems_ckpt, tmp_path):
    from minigpt.checkpoint import load_checkpoint, save_checkpoint
    argv = ["--form", "五绝", "--keywords", "月", "--seed", "1"]
    code, _, err = run(capsys, "generate", "--checkpoint", str(poems_ckpt), *argv)
    assert code == 0 and "not finished" not in err  # a finished run says nothing
    ckpt = load_checkpoint(poems_ckpt)
    del ckpt["path"], ckpt["format"], ckpt["version"]
    ckpt["train_config"] = {**ckpt["train_config"], "max_steps": 5000}  # as if stopped early
    save_checkpoint(tmp_path / "ckpt.pt", ckpt)
    code, out, err = run(capsys, "generate", "--checkpoint", str(tmp_path), *argv)
    assert code == 0 and out.strip()
    notes = [line for line in err.splitlines() if "not finished" in line]
    assert notes == [f"minigpt: note: the checkpoint is from step {ckpt['step']} of 5000; training has not "
                     "finished, so the text may be poorer than the finished model's"]


def test_generate_errors(capsys, poems_ckpt):
    ckpt = str(poems_ckpt)
    code, _, err = run(capsys, "generate", "--checkpoint", ckpt, "--form", "十四行诗", "--keywords", "月")
    assert code == 2
    assert_one_line_error(err, "五言绝句", "七言律诗", "十四行诗")
    code, _, err = run(capsys, "generate", "--checkpoint", ckpt, "--form", "五绝", "--keywords", "月,Q,ж")
    assert code == 2
    assert_one_line_error(err, "'Q'", "'ж'")
    code, _, err = run(capsys, "generate", "--checkpoint", ckpt, "ABC")
    assert code == 2
    assert_one_line_error(err, "'A' 'B' 'C'")
    code, _, err = run(capsys, "generate", "--checkpoint", ckpt, "--form", "五绝")
    assert code == 2
    assert_one_line_error(err, "--keywords")


def test_long_prompt_is_cropped_with_a_notice(capsys, poems_ckpt):
    code, out, err = run(capsys, "generate", "--checkpoint", str(poems_ckpt), "明月" * 50, "--max-new-tokens", "5")
    assert code == 0
    assert "longer than the context of 64" in err and "Traceback" not in err
    assert out.startswith("明月")


def test_damaged_or_missing_checkpoint_exits_1(capsys, tmp_path, poems_ckpt):
    data = (poems_ckpt / "ckpt.pt").read_bytes()
    (tmp_path / "ckpt.pt").write_bytes(data[: len(data) // 2])
    code, _, err = run(capsys, "generate", "--checkpoint", str(tmp_path), "--form", "五绝", "--keywords", "月")
    assert code == 1
    assert_one_line_error(err, "damaged")
    code, _, err = run(capsys, "generate", "--checkpoint", str(tmp_path / "nope"))
    assert code == 1
    assert_one_line_error(err, "no checkpoint at")
    code, _, err = run(capsys, "train", "--preset", "tiny", "--out", str(tmp_path), "--resume", "--no-progress")
    assert code == 1
    assert_one_line_error(err, "damaged")


def test_form_needs_a_poems_checkpoint(capsys, tmp_path):
    from test_train import text_corpus  # noqa: the sibling test module (pytest puts tests/ on sys.path)

    train(get_preset("tiny", max_steps=2, eval_interval=2, eval_iters=1, out_dir=str(tmp_path), threads=1),
          corpus=text_corpus(), progress=False)
    code, _, err = run(capsys, "generate", "--checkpoint", str(tmp_path), "--form", "五绝", "--keywords", "月")
    assert code == 2
    assert_one_line_error(err, "poems", "words")
    code, out, _ = run(capsys, "generate", "--checkpoint", str(tmp_path), "the", "--max-new-tokens", "20")
    assert code == 0 and out.startswith("the") and len(out) > 10  # specials, if sampled, are not printed


def test_lesson_runs_snippets_in_order(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "snippets" / "demo"
    folder.mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nnav:\n  - 首页: index.md\n  - Part:\n      - Demo: part/demo.md\n"
                                         "theme:\n  name: material\n", encoding="utf-8")
    (folder / "02_second.py").write_text("print('two')\n")
    (folder / "01_first.py").write_text("print('one')\n")
    (folder / "notes.txt").write_text("not a snippet\n")
    monkeypatch.chdir(tmp_path)
    result = subprocess.run([sys.executable, "-m", "minigpt", "lesson", "demo"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["==>", "snippets/demo/01_first.py", "<==", "one",
                                     "==>", "snippets/demo/02_second.py", "<==", "two"]
    code, out, _ = run(capsys, "lesson")
    assert code == 0 and "demo" in out
    (folder / "03_answer_spoiler.py").write_text("print('the answer')\n")
    (folder / "tensor.py").write_text("print('a lesson module, imported by the scripts, never run')\n")
    result = subprocess.run([sys.executable, "-m", "minigpt", "lesson", "demo"], capture_output=True, text=True)
    assert "answer" not in result.stdout and "lesson module" not in result.stdout
    result = subprocess.run([sys.executable, "-m", "minigpt", "lesson", "demo", "--answers"], capture_output=True,
                            text=True)
    assert result.stdout.split()[-4:] == ["==>", "snippets/demo/03_answer_spoiler.py", "<==", "the", "answer"][-4:]
    (folder / "04_broken.py").write_text("raise SystemExit(3)\n")
    code, _, err = run(capsys, "lesson", "demo")
    assert code == 1 and "04_broken.py failed with exit code 3" in err


def test_lessons_are_the_nav_pages_with_scripts_in_the_navs_order(capsys, tmp_path, monkeypatch):
    nav = ["index.md", "setup.md", "part/zeta.md", "glossary.md", "part/alpha.md", "part/unwritten.md"]
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nnav:\n" + "".join(f"  - T{i}: {p}\n" for i, p in enumerate(nav))
                                         + "markdown_extensions:\n  - toc:\n      permalink: true\n", encoding="utf-8")
    for slug in ("setup", "zeta", "alpha", "home"):  # home: the home page's scripts, not a lesson's
        (tmp_path / "snippets" / slug).mkdir(parents=True)
        (tmp_path / "snippets" / slug / "01_a.py").write_text("print(1)\n")
    (tmp_path / "snippets" / "unwritten").mkdir()  # a folder without scripts yet
    monkeypatch.chdir(tmp_path / "snippets")  # a folder inside the repository finds it too
    code, out, _ = run(capsys, "lesson")
    assert code == 0 and out == "lessons: setup, zeta, alpha\n"


def test_lesson_outside_the_repository_is_one_clear_error(capsys, tmp_path, monkeypatch):
    from minigpt_course import lessons

    monkeypatch.setattr(lessons, "CHECKOUT", tmp_path)  # as if installed from a wheel
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "lesson")
    assert code == 1 and out == ""
    assert_one_line_error(err, "mkdocs.yml", "run this from a clone of the repository")


def test_every_lesson_of_the_repository_is_listed_in_course_order(capsys):
    code, out, _ = run(capsys, "lesson")
    listed = out.split(":", 1)[1].replace(",", " ").split()
    with_scripts = {p.parent.name for p in (ROOT / "snippets").glob("*/[0-9][0-9]_*.py")}
    assert code == 0 and set(listed) == with_scripts - {"home"}  # home: index.md's scripts
    assert listed[:3] == ["setup", "first-network", "broadcast-matmul"] and listed.index("layers-optim") < listed.index("multi-head")


@pytest.mark.skipif(not (Path(os.environ.get("MINIGPT_DATA", "/nonexistent")) / "tinyshakespeare").is_dir(),
                    reason="needs the corpora (MINIGPT_DATA)")
def test_every_train_config_field_is_a_flag_with_its_comment_as_help(capsys):
    from dataclasses import fields

    from minigpt.cli import build_parser
    from minigpt.config import TrainConfig, field_help

    _, out, _ = run(capsys, "train", "--help")
    helps = field_help(TrainConfig)
    for f in fields(TrainConfig):
        flag = "--out" if f.name == "out_dir" else "--" + f.name.replace("_", "-")
        assert flag in out and " ".join(helps[f.name].split()[:3]) in " ".join(out.split()), f.name
    args = build_parser().parse_args(["train", "--no-bias", "--beta2", "0.95", "--lr-decay-steps", "100", "--out", "x"])
    assert (args.bias, args.beta2, args.lr_decay_steps, args.out_dir, args.n_layer) == (False, 0.95, 100, "x", None)


def test_train_and_resume_from_the_command_line(capsys, tmp_path):
    out = str(tmp_path / "run")
    code, stdout, err = run(capsys, "train", "--preset", "tiny", "--max-steps", "6", "--eval-interval", "3",
                            "--eval-iters", "1", "--out", out, "--threads", "1", "--no-progress")
    assert code == 0, err
    assert "step      3:" in stdout and "done: step 6" in stdout
    code, stdout, err = run(capsys, "train", "--out", out, "--resume", "--max-steps", "9", "--no-progress")
    assert code == 0, err
    assert "step      9:" in stdout and "step      3:" not in stdout
    assert (tmp_path / "run" / "loss.png").is_file()
    code, _, err = run(capsys, "train", "--out", out, "--resume", "--batch-size", "4", "--block-size", "16",
                       "--no-progress")
    assert code == 1
    assert_one_line_error(err, "block_size=32 vs 16")


def test_help_and_the_numpy_engine_never_import_torch():
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "minigpt", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "torch" not in done.stderr
    numpy_side = "import sys, minigpt.gpt, minigpt.nn, minigpt.optim, minigpt.sampling, minigpt.convert, minigpt_course.checks.multi_head"
    done = subprocess.run([sys.executable, "-c", numpy_side + "; print('torch' in sys.modules)"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_imports_flow_one_way_nothing_imports_the_cli():
    importers = [p.name for p in (ROOT / "src" / "minigpt").glob("*.py")
                 if p.name not in ("cli.py", "__main__.py") and "minigpt.cli" in p.read_text(encoding="utf-8")]
    assert importers == []
