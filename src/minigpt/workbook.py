"""The reader's workbook: their own files, grown lesson by lesson, and ``minigpt check`` to grade them.

``init`` writes near-empty files (a docstring naming the lesson that fills each) and a README; ``check``
imports the reader's files fresh from their folder and runs the lesson's graders (``minigpt.checks``) on
the pieces the lesson asks for, reporting a missing piece or an exception in the reader's terms.
"""

from __future__ import annotations

import importlib
import locale
import os
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

# the workbook's files, in the order the course fills them: (file, lesson that starts it, what it holds)
FILES = [
    ("first_network.py", "first-network", "grad_by_nudging: a gradient by nudging one weight at a time"),
    ("tensor.py", "storage", "strides (storage), broadcasting (broadcast-matmul), the Tensor and autograd (autograd on)"),
    ("gradcheck.py", "gradcheck", "numerical_grad: gradients by finite differences, to check a backward"),
    ("functional.py", "softmax-cross-entropy", "cross_entropy and the other functions on Tensors"),
    ("nn.py", "layers-optim", "Module, Linear and the layers"),
    ("optim.py", "layers-optim", "SGD (with momentum) and AdamW"),
    ("data.py", "text-to-tokens", "CharTokenizer (text to ids and back) and get_batch"),
    ("lm.py", "bigram", "the language models before attention: smoothed bigram counts (bigram), concat_window (context)"),
    ("gpt.py", "self-attention", "attention, causal_mask, split_heads, MultiHeadAttention, Block, GPT, move_weights, "
                                 "cached_keys_values (self-attention to kv-cache; GPTConfig may come from minigpt.config)"),
    ("train.py", "loop", "lr_at: the learning rate of each step"),
    ("sampling.py", "sampling", "top_p: a batch of distributions cut to each row's nucleus"),
]
WHAT_ZH = {
    "first_network.py": "grad_by_nudging：一次轻推一个权重，算出梯度",
    "tensor.py": "步长（storage）、广播（broadcast-matmul）、Tensor 和自动求导（autograd 起）",
    "gradcheck.py": "numerical_grad：用有限差分算梯度，检查反向传播",
    "functional.py": "cross_entropy 等作用在 Tensor 上的函数",
    "nn.py": "Module、Linear 等层",
    "optim.py": "SGD（带动量）和 AdamW",
    "data.py": "CharTokenizer（文本和 id 互转）和 get_batch",
    "lm.py": "注意力之前的语言模型：平滑的二元计数（bigram）、concat_window（context）",
    "gpt.py": "attention、causal_mask、split_heads、MultiHeadAttention、Block、GPT、move_weights、cached_keys_values"
              "（self-attention 到 kv-cache；GPTConfig 可以从 minigpt.config 导入）",
    "train.py": "lr_at：每一步的学习率",
    "sampling.py": "top_p：把每一行概率分布裁到它的核（nucleus）",
}

TEXT = {
    "en": {
        "exists": "{dir} exists and is not empty; choose a new folder",
        "created": "created {dir}: {files}",
        "next": "next: minigpt check first-network --workbook {dir}",
        "missing": "{file} has no {piece} yet: lesson {lesson} adds it",
        "nofile": "{file} does not exist in {dir}: run minigpt workbook init",
        "import": "{file} does not import: {where}{error}",
        "raised": "your code raised {where}{error}",
        "nochecks": "no workbook checks for lesson {lesson} yet",
        "reread": "  reread: lesson {lesson}, section #{anchor}",
        "passed": "passed", "notyet": "not yet",
        "summary": "{n} of {total} checks pass",
        "lesson": "lesson", "result": "checks",
        "docstring": "Your {file}: {what}.\n\nLesson {lesson} starts it; later lessons add to it.",
        "readme": """# My minigpt workbook

This folder is your own GPT, written by you, lesson by lesson. Each file starts empty; its docstring
says which lesson fills it. When a lesson asks you to add something to a file, write it here, then check it:

```bash
minigpt check first-network --workbook {dir}
minigpt check --all --workbook {dir}
```

`check` prints one line per check: passed, or not yet with what was expected and what your code gave.
Once lesson 14's check passes, `minigpt workbook train {dir}` trains your own GPT and samples from it.
Add `--lang zh` for Chinese messages.
""",
    },
    "zh": {
        "exists": "{dir} 已存在且不是空的；请换一个新文件夹",
        "created": "已创建 {dir}：{files}",
        "next": "下一步：minigpt check first-network --workbook {dir}",
        "missing": "{file} 里还没有 {piece}：第 {lesson} 课会写它",
        "nofile": "{dir} 里没有 {file}：先运行 minigpt workbook init",
        "import": "{file} 导入失败：{where}{error}",
        "raised": "你的代码抛出异常 {where}{error}",
        "nochecks": "第 {lesson} 课还没有练习本检查",
        "reread": "  重读：第 {lesson} 课的 #{anchor} 一节",
        "passed": "通过", "notyet": "还没通过",
        "summary": "{total} 项检查通过 {n} 项",
        "lesson": "课", "result": "检查",
        "docstring": "你的 {file}：{what}。\n\n第 {lesson} 课开始写它，后面的课继续往里加。",
        "readme": """# 我的 minigpt 练习本

这个文件夹是你自己的 GPT，一课一课亲手写出来。每个文件开头是空的，文档字符串写着哪一课来填它。
课上让你往某个文件里加代码时，就写在这里，然后检查：

```bash
minigpt check first-network --workbook {dir}
minigpt check --all --workbook {dir}
```

`check` 每项检查打印一行：通过；或者还没通过，并给出期望值和你的代码算出的值。
第 14 课的检查通过以后，`minigpt workbook train {dir}` 会训练你自己的 GPT，再让它写几句。
加 `--lang en` 可改用英文提示。
""",
    },
}


def translate(report: str, lang: str) -> str:
    """A grader's report in ``lang``: as written for English; for Chinese, ``minigpt.checks.zh.translate``."""
    if lang != "zh":
        return report
    from minigpt.checks import zh

    return zh.translate(report)


def language(lang: str | None = None) -> str:
    """``lang`` if given, else Chinese for a zh_* locale (LC_ALL, LC_MESSAGES, LANG), else English."""
    if lang:
        if lang not in TEXT:
            raise ValueError(f"--lang must be zh or en, got {lang!r}")
        return lang
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def init(folder: Path, lang: str) -> list[str]:
    """Create the workbook in ``folder`` (new or empty); returns the files written. Refuses a non-empty folder."""
    t = TEXT[lang]
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise FileExistsError(t["exists"].format(dir=folder))
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, lesson, what in FILES:
        what = WHAT_ZH[name] if lang == "zh" else what
        doc = t["docstring"].format(file=name, what=what, lesson=lesson_name(lesson))
        (folder / name).write_text(f'"""{doc}\n"""\n', encoding="utf-8")
        written.append(name)
    (folder / "README.md").write_text(t["readme"].format(dir=folder), encoding="utf-8")
    return written + ["README.md"]


# ---- checks ------------------------------------------------------------------------------------
# the lesson that introduces a piece, when it is not the lesson being checked
INTRODUCED = {
    ("tensor.py", "contiguous_strides"): "storage",
    ("tensor.py", "broadcast_shapes"): "broadcast-matmul",
    ("tensor.py", "Tensor"): "autograd",
    ("tensor.py", "Tensor.tanh"): "autograd",
    ("tensor.py", "Tensor._topological_order"): "autograd",
    ("gradcheck.py", "numerical_grad"): "gradcheck",
    ("functional.py", "cross_entropy"): "softmax-cross-entropy",
    ("optim.py", "SGD"): "layers-optim",
    ("optim.py", "AdamW"): "layers-optim",
    ("gpt.py", "GPT"): "gpt",
}


def lesson_name(slug: str) -> str:
    """``1 (storage)``: the lesson's number in the course (the home page's: lesson 0 is first-network, the
    setup page has none) and its slug; the slug alone when the lessons cannot be listed."""
    from minigpt import lessons

    try:
        slugs = [lesson.slug for lesson in lessons.lessons(lessons.repo_root()) if lesson.slug != "setup"]
    except FileNotFoundError:
        return slug
    return f"{slugs.index(slug)} ({slug})" if slug in slugs else slug


class Missing(Exception):
    """A piece the lesson needs is not in the reader's file yet."""


@dataclass
class Workbook:
    """The reader's modules, imported fresh from ``folder``."""

    folder: Path
    lesson: str
    modules: dict

    def get(self, file: str, *path: str):
        """``file``'s attribute ``path`` (e.g. "Tensor", "tanh"); Missing when the file or a piece is absent."""
        module = self.modules.get(file)
        if module is None:
            raise Missing(("nofile", {"file": file}))
        obj, names = module, []
        for name in path:
            names.append(name)
            if not hasattr(obj, name):
                piece = ".".join(names)
                lesson = INTRODUCED.get((file, piece), self.lesson)
                raise Missing(("missing", {"file": file, "piece": piece, "lesson": lesson_name(lesson)}))
            obj = getattr(obj, name)
        return obj


def _storage(wb):
    return [("contiguous_strides", "check_contiguous_strides", lambda: (wb.get("tensor.py", "contiguous_strides"),))]


def _broadcast(wb):
    return [("broadcast_shapes", "check_broadcast_shapes", lambda: (wb.get("tensor.py", "broadcast_shapes"),))]


def _tanh(x):
    return x.tanh()


def _topological_order(loss):
    return loss._topological_order()


_tanh.__name__, _topological_order.__name__ = "Tensor.tanh", "Tensor._topological_order"


def _autograd(wb):
    def tanh():
        wb.get("tensor.py", "Tensor", "tanh")
        return _tanh, wb.get("tensor.py", "Tensor")

    def order():
        wb.get("tensor.py", "Tensor", "_topological_order")
        return _topological_order, wb.get("tensor.py", "Tensor")

    return [("Tensor.tanh", "check_tanh", tanh), ("Tensor._topological_order", "check_topological_order", order)]


def _gradcheck(wb):
    return [("numerical_grad", "check_numerical_grad", lambda: (wb.get("gradcheck.py", "numerical_grad"),))]


def _softmax_ce(wb):
    def args():
        Tensor = wb.get("tensor.py", "Tensor")
        cross_entropy = wb.get("functional.py", "cross_entropy")

        def cross_entropy_grad(logits, targets):
            x = Tensor(logits, requires_grad=True)
            cross_entropy(x, targets).backward()
            return x.grad

        cross_entropy_grad.__name__ = "cross_entropy (its gradient)"
        return (cross_entropy_grad,)

    return [("cross_entropy", "check_cross_entropy_grad", args)]


def _layers_optim(wb):
    def args():
        wb.get("tensor.py", "Tensor")
        return (wb.get("optim.py", "SGD"),)

    return [("SGD(momentum)", "check_sgd_momentum", args)]


def _first_network(wb):
    return [("grad_by_nudging", "check_grad_by_nudging", lambda: (wb.get("first_network.py", "grad_by_nudging"),))]


def _text_to_tokens(wb):
    return [("CharTokenizer", "check_tokenizer", lambda: (wb.get("data.py", "CharTokenizer"),)),
            ("get_batch", "check_get_batch", lambda: (wb.get("data.py", "get_batch"),))]


def _bigram(wb):
    return [("smoothed", "check_smoothed", lambda: (wb.get("lm.py", "smoothed"),))]


def _context(wb):
    return [("concat_window", "check_concat_window", lambda: (wb.get("lm.py", "concat_window"),))]


def _self_attention(wb):
    return [("attention", "check_attention", lambda: (wb.get("gpt.py", "attention"),))]


def _causal_mask(wb):
    return [("causal_mask", "check_causal_mask", lambda: (wb.get("gpt.py", "causal_mask"),))]


def _gpt_graders():
    return importlib.import_module("minigpt.checks.gpt")


def _multi_head(wb):
    def attention_class():
        return wb.get("gpt.py", "MultiHeadAttention"), wb.get("tensor.py", "Tensor")

    return [("split_heads", "check_split_heads", lambda: (wb.get("gpt.py", "split_heads"),)),
            ("MultiHeadAttention", lambda *a: _gpt_graders().check_attention_class(*a), attention_class)]


def _block(wb):
    return [("Block", lambda *a: _gpt_graders().check_block_class(*a),
             lambda: (wb.get("gpt.py", "Block"), wb.get("tensor.py", "Tensor")))]


def _gpt(wb):
    return [("GPT", lambda *a: _gpt_graders().check_gpt_class(*a),
             lambda: (wb.get("gpt.py", "GPT"), wb.get("tensor.py", "Tensor"))),
            ("GPT trains", lambda *a: _gpt_graders().check_gpt_trains(*a),
             lambda: (wb.get("gpt.py", "GPT"), wb.get("optim.py", "AdamW")))]


def _torch_twin(wb):
    return [("move_weights", "check_move_weights", lambda: (wb.get("gpt.py", "move_weights"),))]


def _loop(wb):
    return [("lr_at", "check_lr_at", lambda: (wb.get("train.py", "lr_at"),))]


def _kv_cache(wb):
    def args():
        from minigpt.tensor import Tensor as LibraryTensor

        fn = wb.get("gpt.py", "cached_keys_values")
        Tensor = wb.get("tensor.py", "Tensor")

        def cached_keys_values(kv_cache, k, v, start):  # the reader's function on the reader's Tensors
            out = fn(kv_cache, Tensor(k.data), Tensor(v.data), start)
            if isinstance(out, tuple) and len(out) == 2 and all(hasattr(t, "data") for t in out):
                return tuple(LibraryTensor(np.asarray(t.data)) for t in out)  # back into the library's GPT
            return out

        return (cached_keys_values,)

    return [("cached_keys_values", "check_cached_keys_values", args)]


def _sampling(wb):
    return [("top_p", "check_top_p", lambda: (wb.get("sampling.py", "top_p"),))]


# lesson slug -> (grader module of minigpt.checks, the checks: workbook -> [(name, grader, () -> its arguments)]);
# a grader is the name of a function of that module, or a function
LESSONS: dict[str, tuple[str, Callable]] = {
    "first-network": ("first_network", _first_network),
    "storage": ("storage", _storage),
    "broadcast-matmul": ("broadcast_matmul", _broadcast),
    "autograd": ("autograd", _autograd),
    "gradcheck": ("gradcheck", _gradcheck),
    "softmax-cross-entropy": ("softmax_cross_entropy", _softmax_ce),
    "layers-optim": ("layers_optim", _layers_optim),
    "text-to-tokens": ("text_to_tokens", _text_to_tokens),
    "bigram": ("bigram", _bigram),
    "context": ("context", _context),
    "self-attention": ("self_attention", _self_attention),
    "causal-mask": ("causal_mask", _causal_mask),
    "multi-head": ("multi_head", _multi_head),
    "block": ("block", _block),
    "gpt": ("gpt", _gpt),
    "torch-twin": ("torch_twin", _torch_twin),
    "loop": ("loop", _loop),
    "sampling": ("sampling", _sampling),
    "kv-cache": ("kv_cache", _kv_cache),
}
# (lesson, check) -> the section of the lesson to reread when the check fails
REREAD = {
    ("first-network", "grad_by_nudging"): "gradient",
    ("storage", "contiguous_strides"): "row-major",
    ("broadcast-matmul", "broadcast_shapes"): "rules",
    ("autograd", "Tensor.tanh"): "local-derivatives",
    ("autograd", "Tensor._topological_order"): "topological-order",
    ("gradcheck", "numerical_grad"): "central-differences",
    ("softmax-cross-entropy", "cross_entropy"): "gradient",
    ("layers-optim", "SGD(momentum)"): "sgd",
    ("text-to-tokens", "CharTokenizer"): "structure",
    ("text-to-tokens", "get_batch"): "batches",
    ("bigram", "smoothed"): "unseen",
    ("context", "concat_window"): "concat",
    ("self-attention", "attention"): "structure",
    ("causal-mask", "causal_mask"): "structure",
    ("multi-head", "split_heads"): "split-heads",
    ("multi-head", "MultiHeadAttention"): "structure",
    ("block", "Block"): "structure",
    ("gpt", "GPT"): "structure",
    ("gpt", "GPT trains"): "in-the-model",
    ("torch-twin", "move_weights"): "weights-across",
    ("loop", "lr_at"): "schedule",
    ("sampling", "top_p"): "top-k-top-p",
    ("kv-cache", "cached_keys_values"): "structure",
}
# graders that build their own Tensors: in the workbook they build the reader's
READER_TENSOR = {"layers_optim", "context", "self_attention", "multi_head"}


def _where(exc: BaseException, folder: Path) -> str:
    """``file.py:line: `` of the deepest frame of the reader's own files, or ""."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if Path(f.filename).resolve().parent == folder.resolve()]
    if isinstance(exc, SyntaxError) and exc.filename and Path(exc.filename).resolve().parent == folder.resolve():
        return f"{Path(exc.filename).name}:{exc.lineno}: "
    return f"{Path(frames[-1].filename).name}:{frames[-1].lineno}: " if frames else ""


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}".rstrip(": ")


def _load(folder: Path) -> tuple[dict, list[str]]:
    """Import every workbook file fresh from ``folder``; returns ({file: module or None}, import problems)."""
    modules, problems = {}, []
    for name, *_ in FILES:
        if not (folder / name).is_file():
            modules[name] = None
            continue
        try:
            modules[name] = importlib.import_module(name[:-3])
        except Exception as e:
            modules[name] = None
            problems.append((name, e))
    return modules, problems


class _Isolated:
    """DIR first on sys.path and the workbook's module names unbound, both restored on exit."""

    def __init__(self, folder: Path):
        self.folder, self.names = folder, [name[:-3] for name, *_ in FILES]

    def __enter__(self):
        self.saved = {n: sys.modules.pop(n) for n in self.names if n in sys.modules}
        self.path = list(sys.path)
        sys.path.insert(0, str(self.folder.resolve()))
        importlib.invalidate_caches()
        return self

    def __exit__(self, *exc):
        for n in self.names:
            sys.modules.pop(n, None)
        sys.modules.update(self.saved)
        sys.path[:] = self.path


def run_lesson(lesson: str, folder: Path, lang: str) -> list[tuple[str, bool, str]]:
    """The lesson's checks on the workbook in ``folder``: [(what, passed, report)]."""
    t = TEXT[lang]
    if lesson not in LESSONS:
        return []
    grader_module, build = LESSONS[lesson]
    graders = importlib.import_module(f"minigpt.checks.{grader_module}")
    with _Isolated(folder):
        modules, problems = _load(folder)
        for name, e in problems:  # a file that does not import fails the lesson that needs it
            modules[name] = _Broken(t["import"].format(file=name, where=_where(e, folder), error=_error(e)))
        wb = Workbook(folder, lesson, modules)
        results = []
        saved_tensor = getattr(graders, "Tensor", None)
        tensor_module = modules.get("tensor.py")
        reader_tensor = None if isinstance(tensor_module, _Broken) else getattr(tensor_module, "Tensor", None)
        if grader_module in READER_TENSOR and reader_tensor is not None:
            graders.Tensor = reader_tensor  # e.g. the reader's optimizer steps the reader's Tensors
        try:
            for what, grader, args in build(wb):
                try:
                    args = args()
                except Missing as m:
                    key, values = m.args[0]
                    results.append((what, False, t[key].format(dir=folder, **values)))
                    continue
                except _BrokenFile as b:
                    results.append((what, False, str(b)))
                    continue
                try:
                    report = (getattr(graders, grader) if isinstance(grader, str) else grader)(*args)
                except Exception as e:
                    results.append((what, False, t["raised"].format(where=_where(e, folder), error=_error(e))))
                    continue
                first = report.splitlines()[0] if report else ""
                ok = "passed" in first and "not yet" not in first
                if not ok and (lesson, what) in REREAD:
                    report += "\n" + t["reread"].format(lesson=lesson_name(lesson), anchor=REREAD[lesson, what])
                results.append((what, ok, report))
        finally:
            if saved_tensor is not None:
                graders.Tensor = saved_tensor
        return results


class _BrokenFile(Exception):
    pass


class _Broken:
    """Stands for a file that did not import: any use of it reports why."""

    def __init__(self, message: str):
        self.message = message

    def __getattr__(self, name):
        raise _BrokenFile(self.message)


def check(lesson: str, folder: Path, lang: str, out=print) -> int:
    """``minigpt check <lesson>``: one line per check, 0 when all pass, 1 otherwise."""
    t = TEXT[lang]
    results = run_lesson(lesson, folder, lang)
    if not results:
        out(t["nochecks"].format(lesson=lesson))
        return 1
    for what, ok, report in results:
        first, *rest = translate(report, lang).splitlines()
        status = t["passed"] if ok else t["notyet"]
        out(f"[{status}] {first}")
        for line in rest:
            out(f"    {line}")
    passed = sum(ok for _, ok, _ in results)
    out(t["summary"].format(n=passed, total=len(results)))
    return 0 if passed == len(results) else 1


def check_all(slugs: list[str], folder: Path, lang: str, out=print) -> int:
    """``minigpt check --all``: one row per lesson in course order; 0 when every checked lesson passes."""
    t = TEXT[lang]
    rows, all_ok = [], True
    for slug in slugs:
        if slug not in LESSONS:
            rows.append((slug, "-"))
            continue
        results = run_lesson(slug, folder, lang)
        ok = sum(r[1] for r in results)
        all_ok &= ok == len(results)
        rows.append((slug, f"{ok}/{len(results)} " + (t["passed"] if ok == len(results) else t["notyet"])))
    width = max(len(t["lesson"]), *(len(s) for s, _ in rows))
    out(f"{t['lesson']:<{width}}  {t['result']}")
    for slug, text in rows:
        out(f"{slug:<{width}}  {text}")
    return 0 if all_ok else 1
