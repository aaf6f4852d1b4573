"""The lesson modules (snippets/<lesson>/<name>.py: the reader's files as each lesson leaves them) are
checked against numpy and PyTorch like the library, op by op, in float64."""

from __future__ import annotations

import difflib
import importlib
import re
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from minigpt_course.lessons import lessons

ROOT = Path(__file__).resolve().parents[1]
SNIPPETS = ROOT / "snippets"
LESSONS = [lesson.slug for lesson in lessons(ROOT)]  # in course order (mkdocs.yml's nav)
MODULES = sorted(p for p in SNIPPETS.glob("*/*.py") if not re.match(r"\d\d_", p.name))
NAMES = sorted({p.stem for p in MODULES})
ENGINES = [slug for slug in LESSONS if (SNIPPETS / slug / "tensor.py").exists()]  # lessons 2 and 3: a Tensor each


def test_the_engines_are_autograd_then_softmax_in_course_order():  # layers-optim builds on the second
    assert ENGINES == ["autograd", "softmax-cross-entropy"]


def test_every_snippets_folder_is_a_lessons_or_the_home_pages():
    folders = {p.name for p in SNIPPETS.iterdir() if p.is_dir() and not p.name.startswith((".", "__"))}
    assert folders - {"home"} == set(LESSONS), (
        f"folders of snippets/ that are no lesson of mkdocs.yml's nav: {sorted(folders - {'home'} - set(LESSONS))}")


def test_no_lesson_module_is_named_like_a_standard_library_module():
    # snippets/<lesson>/ comes first on a script's sys.path: a lesson's random.py or code.py would hide
    # the standard library's from everything the script imports
    clashes = [f"snippets/{p.relative_to(SNIPPETS)}" for p in MODULES if p.stem in sys.stdlib_module_names]
    assert MODULES and not clashes, f"rename these lesson modules, they hide a standard library module: {clashes}"


def load(lesson: str, name: str):
    """Import snippets/<lesson>/<name>.py the way its scripts do (their folder first on sys.path), fresh."""
    saved = {n: sys.modules.pop(n) for n in NAMES if n in sys.modules}
    path = list(sys.path)
    sys.path.insert(0, str(SNIPPETS / lesson))
    try:
        return importlib.import_module(name)
    finally:
        sys.path[:] = path
        for n in NAMES:
            sys.modules.pop(n, None)
        sys.modules.update(saved)


def defined_in(cls) -> str:
    """The lesson module a class comes from, as <lesson>/<name>.py."""
    return Path(cls.backward.__code__.co_filename).relative_to(SNIPPETS).as_posix()


def rand(seed, *shape, positive=False):
    a = np.random.default_rng(seed).standard_normal(shape)
    return np.abs(a) + 0.5 if positive else a


# name: (ours, torch's, input shapes, positive inputs, first lesson that has it)
OPS = {
    "add": (lambda a, b: a + b, lambda a, b: a + b, [(3, 4), (3, 4)], False, 0),
    "sub": (lambda a, b: a - b, lambda a, b: a - b, [(3, 4), (3, 4)], False, 0),
    "mul": (lambda a, b: a * b, lambda a, b: a * b, [(3, 4), (3, 4)], False, 0),
    "div": (lambda a, b: a / b, lambda a, b: a / b, [(3, 4), (3, 4)], True, 0),
    "pow": (lambda a: a**3.5, lambda a: a**3.5, [(2, 5)], True, 0),
    "neg scalar": (lambda a: 2.0 - a * 3.0, lambda a: 2.0 - a * 3.0, [(4,)], False, 0),
    "exp log": (lambda a: a.exp() + a.log(), lambda a: a.exp() + a.log(), [(3, 2)], True, 0),
    "tanh relu": (lambda a: a.tanh() * a.relu(), lambda a: a.tanh() * a.relu(), [(5, 3)], False, 0),
    "sum": (lambda a: a.sum(1) * 2.0, lambda a: a.sum(1) * 2.0, [(3, 4, 2)], False, 0),
    "sum keepdim": (lambda a: a * a.sum(-1, keepdim=True), lambda a: a * a.sum(-1, keepdim=True), [(3, 4)], False, 1),
    "matmul": (lambda a, b: a @ b, lambda a, b: a @ b, [(3, 4), (4, 5)], False, 0),
    "batched matmul": (lambda a, b: a @ b, lambda a, b: a @ b, [(2, 3, 4), (2, 4, 5)], False, 0),
    "broadcast add": (lambda a, b: a + b, lambda a, b: a + b, [(2, 3, 4), (4,)], False, 1),
    "broadcast mul": (lambda a, b: a * b, lambda a, b: a * b, [(2, 1, 4), (3, 1)], False, 1),
    "linear matmul": (lambda x, w: x @ w.T, lambda x, w: x @ w.T, [(2, 3, 4), (5, 4)], False, 1),
    "mean": (lambda a: a.mean(0), lambda a: a.mean(0), [(3, 4)], False, 1),
    "reshape permute": (lambda a: a.reshape(2, 12).reshape(2, 3, 4).permute(2, 0, 1) * 1.5,
                        lambda a: a.reshape(2, 12).reshape(2, 3, 4).permute(2, 0, 1) * 1.5, [(6, 4)], False, 1),
    "transpose": (lambda a: a.transpose(0, 2) * a.transpose(0, 2), lambda a: a.transpose(0, 2) * a.transpose(0, 2),
                  [(2, 3, 4)], False, 1),
    "index": (lambda a: a[np.array([0, 2, 0])] * 2.0, lambda a: a[torch.tensor([0, 2, 0])] * 2.0, [(3, 4)], False, 1),
    "softmax": (lambda a: a.softmax(-1), lambda a: a.softmax(-1), [(3, 5)], False, 2),
    "softmax dim 0": (lambda a: a.softmax(0), lambda a: a.softmax(0), [(3, 5)], False, 2),
    "log_softmax": (lambda a: a.log_softmax(-1), lambda a: a.log_softmax(-1), [(2, 3, 5)], False, 2),
}
CASES = [(lesson, op) for i, lesson in enumerate(ENGINES) for op, spec in OPS.items() if spec[4] <= i]


@pytest.mark.parametrize("lesson, op", CASES, ids=[f"{lesson}:{op}" for lesson, op in CASES])
def test_every_op_of_the_readers_engine_matches_torch(lesson, op):
    Tensor = load(lesson, "tensor").Tensor
    ours, theirs, shapes, positive, _ = OPS[op]
    arrays = [rand(i, *s, positive=positive) for i, s in enumerate(shapes)]
    xs = [Tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, tout = ours(*xs), theirs(*ts)
    np.testing.assert_allclose(out.data, tout.detach().numpy(), rtol=1e-12, atol=1e-12)
    g = rand(9, *tout.shape)
    (out * Tensor(g)).sum().backward()
    tout.backward(torch.tensor(g))
    for x, t in zip(xs, ts):
        np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=1e-10, atol=1e-12)


def test_autograd_refuses_broadcast_gradients_and_the_softmax_lesson_sums_them():
    Tensor = load("autograd", "tensor").Tensor
    with pytest.raises(ValueError, match="summed back"):
        (Tensor(np.ones((2, 3))) * Tensor(np.ones(3), requires_grad=True)).sum().backward()
    Tensor = load("softmax-cross-entropy", "tensor").Tensor
    w = Tensor(np.ones(3), requires_grad=True)
    (Tensor(np.ones((2, 3))) * w).sum().backward()
    np.testing.assert_array_equal(w.grad, [2.0, 2.0, 2.0])


def test_lesson_1_strides_and_views_agree_with_numpy_and_torch():
    strided = load("storage", "strided")
    for shape in [(2, 3, 4), (5,), (3, 1, 2), (2, 3, 2, 4)]:
        x, a = strided.Strided.arange(*shape), np.arange(int(np.prod(shape))).reshape(shape)
        assert x.strides == tuple(s // a.itemsize for s in a.strides) == torch.from_numpy(a).stride()
        dims = tuple(reversed(range(len(shape))))
        assert x.permute(*dims).tolist() == a.transpose(dims).tolist()
        assert x.permute(*dims).is_contiguous() == torch.from_numpy(a).permute(dims).is_contiguous()
    y = strided.Strided.arange(2, 3, 8).reshape(2, 3, 2, 4).permute(0, 2, 1, 3)
    with pytest.raises(ValueError, match="contiguous"):
        y.reshape(4, 3, 4)
    ref = np.arange(48).reshape(2, 3, 2, 4).transpose(0, 2, 1, 3).reshape(4, 3, 4)
    assert y.contiguous().reshape(4, 3, 4).tolist() == ref.tolist()
    assert strided.Strided.arange(2, 3, 4).select(1, 2).tolist() == np.arange(24).reshape(2, 3, 4)[:, 2].tolist()
    with pytest.raises(IndexError, match="positions 0..2"):
        strided.Strided.arange(2, 3, 4).select(1, 3)


def test_lesson_2_broadcasting_and_batched_matmul_agree_with_numpy():
    b = load("broadcast-matmul", "broadcast")
    for x, y in [((2, 3, 4), (4,)), ((8, 1, 6, 1), (7, 1, 5)), ((1,), (3, 2)), ((), (2, 2))]:
        assert b.broadcast_shapes(x, y) == np.broadcast_shapes(x, y)
    for x, y in [((3,), (4,)), ((2, 1), (8, 4, 3))]:
        with pytest.raises(ValueError, match="do not broadcast"):
            b.broadcast_shapes(x, y)
    a, c = rand(0, 2, 1, 3, 4), rand(1, 5, 4, 6)
    np.testing.assert_allclose(b.batched_matmul(a, c), a @ c, rtol=1e-12)
    with pytest.raises(ValueError, match="at least 2 dims"):
        b.batched_matmul(rand(0, 4), c)


def test_autograd_gradcheck_passes_right_gradients_and_catches_a_wrong_one():
    gc = load("autograd", "gradcheck")
    assert defined_in(gc.Tensor) == "autograd/tensor.py"  # the lesson's own engine, beside it
    assert gc.gradcheck(lambda x, w: (x @ w).tanh().sum(), rand(0, 3, 4), rand(1, 4, 5)) < 1e-8
    wrong = gc.Tensor.tanh

    def bad_tanh(self):  # forgets the square in 1 - tanh^2
        out = np.tanh(self.data)
        return gc.Tensor._make(out, (self,), lambda g: self._accumulate(g * (1.0 - out)), "tanh")

    gc.Tensor.tanh = bad_tanh
    try:
        with pytest.raises(AssertionError, match="autograd .* numerical"):
            gc.gradcheck(lambda x: x.tanh().sum(), rand(2, 3))
    finally:
        gc.Tensor.tanh = wrong


def test_autograd_gradcheck_names_a_gradient_of_the_wrong_shape_and_treats_no_gradient_as_zero():
    gc = load("autograd", "gradcheck")
    right = gc.Tensor._accumulate

    def as_is(self, g):  # no unbroadcast: a (C,) bias gets a (B, T, C) gradient
        if self.requires_grad:
            self.grad = g.copy() if self.grad is None else self.grad + g

    gc.Tensor._accumulate = as_is
    try:
        with pytest.raises(AssertionError, match=r"input 1: .* shape \(2, 3, 4\) for an input of shape \(4,\)"):
            gc.gradcheck(lambda x, b: (x + b).sum(), rand(0, 2, 3, 4), rand(1, 4))
    finally:
        gc.Tensor._accumulate = right
    assert gc.gradcheck(lambda x, unused: x.tanh().sum(), rand(0, 3), rand(1, 2)) < 1e-8


def test_lesson_5_cross_entropy_matches_torch_and_survives_huge_logits():
    tensor, functional = load("softmax-cross-entropy", "tensor"), load("softmax-cross-entropy", "functional")
    logits, targets = rand(0, 4, 7) * 50, np.array([0, 6, 3, 3])
    x = functional.Tensor(logits, requires_grad=True)
    loss = functional.cross_entropy(x, targets)
    t = torch.tensor(logits, requires_grad=True)
    ref = torch.nn.functional.cross_entropy(t, torch.tensor(targets))
    loss.backward()
    ref.backward()
    np.testing.assert_allclose(loss.data, ref.item(), rtol=1e-12)
    np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=1e-10, atol=1e-14)
    assert defined_in(functional.Tensor) == "softmax-cross-entropy/tensor.py"  # built on lesson 3's engine
    assert loss._op == "cross_entropy" and loss._prev == (x,)  # one fused node, straight from the logits
    assert not hasattr(load("autograd", "tensor").Tensor, "softmax") and hasattr(tensor.Tensor, "softmax")
    with pytest.raises(ValueError, match="integer targets"):
        functional.cross_entropy(x, np.array([0.5, 1, 2, 3]))
    with pytest.raises(ValueError, match="target -1 is out of range for 7 classes"):
        functional.cross_entropy(x, np.array([0, -1, 3, 3]))  # numpy would quietly read the last class


def test_lesson_5_ops_stay_exact_where_exp_overflows_or_underflows():
    # logits of +-1000: exp overflows to inf and underflows to 0 in float64, so only the max trick
    # (and log_softmax instead of log(softmax)) gives torch's numbers
    tensor, functional = load("softmax-cross-entropy", "tensor"), load("softmax-cross-entropy", "functional")
    logits, targets = rand(3, 5, 6) * 1000, np.array([0, 5, 2, 2, 1])
    g = rand(4, 5, 6)
    for op in ("softmax", "log_softmax"):
        x, t = tensor.Tensor(logits, requires_grad=True), torch.tensor(logits, requires_grad=True)
        out, ref = getattr(x, op)(-1), getattr(t, op)(-1)
        (out * tensor.Tensor(g)).sum().backward()
        ref.backward(torch.tensor(g))
        np.testing.assert_allclose(out.data, ref.detach().numpy(), rtol=1e-12, atol=1e-300)
        np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=1e-10, atol=1e-12)
    x, t = functional.Tensor(logits, requires_grad=True), torch.tensor(logits, requires_grad=True)
    loss, ref = functional.cross_entropy(x, targets), torch.nn.functional.cross_entropy(t, torch.tensor(targets))
    loss.backward()
    ref.backward()
    np.testing.assert_allclose(loss.data, ref.item(), rtol=1e-12)
    np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=1e-10, atol=1e-14)


def test_lesson_6_layers_and_optimisers_agree_with_torch_and_the_library():
    from minigpt import nn as lib_nn
    from minigpt import optim as lib_optim
    from minigpt.tensor import Tensor as LibTensor

    nn, optim = load("layers-optim", "nn"), load("layers-optim", "optim")
    Tensor = nn.Tensor
    assert defined_in(Tensor) == "softmax-cross-entropy/tensor.py"  # lesson 3's engine, not a copy
    rng = np.random.default_rng(0)
    ours = {"lin": nn.Linear(4, 3, rng=rng), "ln": nn.LayerNorm(3), "emb": nn.Embedding(6, 4, rng=rng)}
    lib = {"lin": lib_nn.Linear(4, 3).to(np.float64), "ln": lib_nn.LayerNorm(3).to(np.float64),
           "emb": lib_nn.Embedding(6, 4).to(np.float64)}
    for k in ours:  # the reader's weights into the library's layers
        for (name, p), (_, q) in zip(ours[k].named_parameters(), lib[k].named_parameters()):
            assert name in ("weight", "bias") and p.data.shape == q.shape
            q.data = p.data.copy()
    idx = np.array([[0, 5, 2], [1, 1, 3]])

    def forward(layers, T):
        return (layers["ln"](layers["lin"](layers["emb"](idx))) * T(rand(7, 2, 3, 3))).sum()

    a, b = forward(ours, Tensor), forward(lib, LibTensor)
    a.backward()
    b.backward()
    np.testing.assert_allclose(a.data, b.data, rtol=1e-12)
    for k in ours:
        for p, q in zip(ours[k].parameters(), lib[k].parameters()):
            np.testing.assert_allclose(p.grad, q.grad, rtol=1e-9, atol=1e-12)
    # one AdamW step and one SGD step move the weights exactly as the library's (and torch's) do
    for ours_opt, lib_opt, kw in [(optim.AdamW, lib_optim.AdamW, {"weight_decay": 0.1}), (optim.SGD, lib_optim.SGD, {})]:
        p, q = nn.Parameter(rand(1, 3, 2)), LibTensor(rand(1, 3, 2), requires_grad=True)
        t = torch.tensor(rand(1, 3, 2), requires_grad=True)
        topt = (torch.optim.AdamW if ours_opt is optim.AdamW else torch.optim.SGD)([t], lr=0.1, **kw)
        o1, o2 = ours_opt([p], lr=0.1, **kw), lib_opt([q], lr=0.1, **kw)
        for step in range(3):
            g = rand(10 + step, 3, 2)
            p.grad, q.grad, t.grad = g.copy(), g.copy(), torch.tensor(g)
            o1.step(), o2.step(), topt.step()
        np.testing.assert_allclose(p.data, q.data, rtol=1e-12)
        np.testing.assert_allclose(p.data, t.detach().numpy(), rtol=1e-10)


def test_lesson_6_toy_model_trains_like_its_torch_twin_and_its_floor_is_the_counted_entropy():
    toy = load("layers-optim", "toy")
    from collections import Counter

    x, y = toy.pairs()
    assert len(x) == len(toy.TEXT) - 1 and "".join(toy.CHARS[i] for i in y) == toy.TEXT[1:]
    pairs, firsts = Counter(zip(x.tolist(), y.tolist())), Counter(x.tolist())
    entropy = -sum(n * np.log(n / firsts[a]) for (a, _), n in pairs.items()) / len(x)
    np.testing.assert_allclose(toy.floor(x, y), entropy, rtol=1e-12)

    model = toy.TinyLM(C=8, rng=np.random.default_rng(3))
    twin = torch.nn.Sequential(torch.nn.Embedding(toy.V, 8), torch.nn.Linear(8, toy.V)).double()
    for (name, p), (tname, q) in zip(model.named_parameters(), twin.named_parameters()):
        assert name.split(".")[1] == tname.split(".")[1] and p.data.shape == tuple(q.shape)
        q.data = torch.from_numpy(p.data.copy())
    optim = load("layers-optim", "optim")  # an optimiser only reads .data and .grad
    losses = toy.train(model, optim.AdamW(model.parameters(), lr=0.03, weight_decay=0.1), x, y, steps=4)
    topt = torch.optim.AdamW(twin.parameters(), lr=0.03, weight_decay=0.1)
    for step in range(4):
        loss = torch.nn.functional.cross_entropy(twin(torch.from_numpy(x)), torch.from_numpy(y))
        np.testing.assert_allclose(losses[step], loss.item(), rtol=1e-12)
        topt.zero_grad()
        loss.backward()
        topt.step()
    for p, q in zip(model.parameters(), twin.parameters()):
        np.testing.assert_allclose(p.data, q.detach().numpy(), rtol=1e-9, atol=1e-12)


def test_lesson_8_bigram_counts_and_learned_table_agree_with_counter_and_torch():
    from collections import Counter

    bigram = load("bigram", "bigram")
    ids = np.random.default_rng(0).integers(0, 7, size=441)
    N = bigram.count_pairs(ids, 7)
    pairs = Counter(zip(ids[:-1].tolist(), ids[1:].tolist()))
    assert N.shape == (7, 7) and N.sum() == len(ids) - 1
    assert all(N[a, b] == n for (a, b), n in pairs.items())
    model = bigram.CountBigram(ids, 7, alpha=0.5)
    np.testing.assert_allclose(model.probs(np.arange(7)).sum(axis=1), 1.0, rtol=1e-12)
    want = -np.mean([np.log((N[a, b] + 0.5) / (N[a].sum() + 3.5)) for a, b in zip(ids[:-1], ids[1:])])
    np.testing.assert_allclose(model.nll(ids), want, rtol=1e-12)
    unsmoothed = bigram.CountBigram(np.array([0, 1, 0, 1]), 7)
    assert unsmoothed.nll(np.array([0, 2])) == np.inf  # a pair never counted
    assert np.isnan(unsmoothed.nll(np.array([5, 6])))  # a row never counted: 0 / 0

    learned = bigram.LearnedBigram(7, rng=np.random.default_rng(1))
    twin = torch.nn.Embedding(7, 7).double()
    twin.weight.data = torch.from_numpy(learned.table.weight.data.astype(np.float64))
    x, y = ids[:-1].reshape(8, 55), ids[1:].reshape(8, 55)
    _, loss = learned(x, y)
    ref = torch.nn.functional.cross_entropy(twin(torch.from_numpy(x)).reshape(-1, 7), torch.from_numpy(y).reshape(-1))
    loss.backward()
    ref.backward()
    np.testing.assert_allclose(float(loss.data), ref.item(), rtol=1e-5)  # float32 table
    np.testing.assert_allclose(learned.table.weight.grad, twin.weight.grad.numpy(), rtol=1e-4, atol=1e-7)
    whole = torch.nn.functional.cross_entropy(twin.weight[torch.from_numpy(ids[:-1])], torch.from_numpy(ids[1:]))
    np.testing.assert_allclose(learned.nll(ids), whole.item(), rtol=1e-6)
    np.testing.assert_allclose(learned.probs(np.arange(7)), torch.softmax(twin.weight, 1).detach().numpy(), rtol=1e-6)


def test_lesson_8_draw_follows_the_row_and_generate_repeats_with_the_seed():
    bigram = load("bigram", "bigram")
    p = np.array([0.5, 0.0, 0.3, 0.2])
    rng = np.random.default_rng(0)
    freq = np.bincount([bigram.draw(p, rng) for _ in range(20_000)], minlength=4) / 20_000
    assert freq[1] == 0 and np.abs(freq - p).max() < 0.02
    model = bigram.CountBigram(np.random.default_rng(2).integers(0, 5, size=300), 5)
    a = bigram.generate(model, 0, 30, np.random.default_rng(7))
    assert a == bigram.generate(model, 0, 30, np.random.default_rng(7)) and len(a) == 31
    assert all(model.counts[i, j] > 0 for i, j in zip(a[:-1], a[1:]))  # only pairs it counted
    stopped = bigram.generate(model, 0, 1000, np.random.default_rng(7), stop=3)
    assert stopped[-1] == 3 and 3 not in stopped[1:-1]


@pytest.mark.parametrize("lesson", ENGINES)
def test_a_second_backward_adds_the_same_gradients_again_as_torch_does(lesson):
    # intermediate results start again from zero on every backward(); leaves keep adding up until zero_grad()
    Tensor = load(lesson, "tensor").Tensor
    arrays = [rand(i, 3, 4) for i in range(2)]
    x, w = (Tensor(a, requires_grad=True) for a in arrays)
    tx, tw = (torch.tensor(a, requires_grad=True) for a in arrays)
    h, th = x * w, tx * tw
    loss, tloss = (h + h * h).tanh().sum(), (th + th * th).tanh().sum()
    for _ in range(2):
        loss.backward()
        tloss.backward(retain_graph=True)
        np.testing.assert_allclose(x.grad, tx.grad.numpy(), rtol=1e-12)
        np.testing.assert_allclose(w.grad, tw.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("lesson", ENGINES)
def test_backward_needs_one_number_that_depends_on_a_tensor_with_requires_grad(lesson):
    Tensor = load(lesson, "tensor").Tensor
    with pytest.raises(ValueError, match=r"shape \(3,\): reduce it first"):
        (Tensor(np.ones(3), requires_grad=True) * 2.0).backward()
    with pytest.raises(ValueError, match="requires_grad=True"):
        (Tensor(np.ones(3)) * 2.0).sum().backward()


# A lesson module lives only in the lesson that writes or changes it (CONTRIBUTING.md): a later lesson
# imports it from there instead of carrying a copy. Two modules whose lines are at least 97% the same
# (difflib's matching lines, over the longer file) count as copies: a changed docstring does not hide one,
# while lesson 2's Tensor, which the softmax lesson grows, is not a copy of it.
def _same_share(a: list[str], b: list[str]) -> float:
    same = sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return same / max(len(a), len(b), 1)


def test_the_copy_measure_catches_a_copy_with_a_new_docstring_and_passes_growth():
    lesson5 = (SNIPPETS / "softmax-cross-entropy" / "tensor.py").read_text(encoding="utf-8").splitlines()
    copy = ['"""The Tensor at the end of Part 1, unchanged."""'] + lesson5[2:]  # docstring rewritten
    assert _same_share(lesson5, copy) >= 0.97
    lesson2 = (SNIPPETS / "autograd" / "tensor.py").read_text(encoding="utf-8").splitlines()
    assert _same_share(lesson2, lesson5) < 0.97


def test_no_lesson_module_is_a_copy_of_another():
    lines = {p: p.read_text(encoding="utf-8").splitlines() for p in MODULES}
    copies = [f"snippets/{a.relative_to(SNIPPETS)} and snippets/{b.relative_to(SNIPPETS)}: "
              f"{_same_share(lines[a], lines[b]):.0%} of their lines are the same"
              for i, a in enumerate(MODULES) for b in MODULES[i + 1:] if _same_share(lines[a], lines[b]) >= 0.97]
    assert len(MODULES) > 1 and not copies, (
        "lesson modules that are copies (import the earlier lesson's module instead of carrying it):\n"
        + "\n".join(copies))


# Lesson 7 (lm/context): the reader's fixed-window MLP, built on the library's engine.


def _window_model(k=3, V=11, seed=0):
    wm = load("context", "window_mlp")
    model = wm.WindowMLP(V, k, n_embd=4, n_hidden=6, rng=np.random.default_rng(seed)).to(np.float64)
    for p in model.parameters():  # off the initial values: LayerNorm weight 1 and zero biases hide mistakes
        p.data += np.random.default_rng(seed + 1).standard_normal(p.shape) * 0.3
    return wm, model


def test_lesson_9_window_mlp_matches_torch_on_logits_and_every_gradient():
    wm, model = _window_model()
    idx = np.random.default_rng(5).integers(0, 11, size=(7, 3))
    y = np.random.default_rng(6).integers(0, 11, size=7)
    from minigpt import functional as F

    F.cross_entropy(model(idx), y).backward()
    w = {n: torch.tensor(p.data, requires_grad=True) for n, p in model.named_parameters()}
    e = torch.nn.functional.embedding(torch.tensor(idx), w["wte.weight"])  # (B, k, d)
    a = torch.nn.functional.linear(e.flatten(1), w["fc.weight"], w["fc.bias"])
    h = torch.tanh(torch.nn.functional.layer_norm(a, (6,), w["ln.weight"], w["ln.bias"], eps=1e-5))
    logits = torch.nn.functional.linear(h, w["lm_head.weight"], w["lm_head.bias"])
    torch.nn.functional.cross_entropy(logits, torch.tensor(y)).backward()
    np.testing.assert_allclose(model(idx).data, logits.detach().numpy(), rtol=1e-10, atol=1e-12)
    for n, p in model.named_parameters():
        np.testing.assert_allclose(p.grad, w[n].grad.numpy(), rtol=1e-9, atol=1e-12, err_msg=n)
    reversed_logits = model(idx[:, ::-1].copy()).data  # the order of the window matters
    assert not np.allclose(reversed_logits, logits.detach().numpy())


def test_lesson_9_parameters_grow_by_d_times_h_per_window_position():
    wm = load("context", "window_mlp")
    counts = [sum(p.numel() for p in wm.WindowMLP(69, k, rng=np.random.default_rng(0)).parameters())
              for k in (1, 2, 3)]
    assert counts[1] - counts[0] == counts[2] - counts[1] == 16 * 64
    assert counts[0] == 69 * 16 + (16 * 64 + 64) + 2 * 64 + (64 * 69 + 69)


def test_lesson_9_windows_are_the_k_tokens_before_each_target():
    wm = load("context", "window_mlp")
    data = np.arange(10) * 10
    x, y = wm.windows(data, 3, first=4)
    assert x.tolist()[0] == [10, 20, 30] and y.tolist()[0] == 40
    assert x.shape == (6, 3) and y.tolist() == data[4:].tolist()
    assert all(x[i].tolist() == data[4 + i - 3 : 4 + i].tolist() for i in range(6))
    with pytest.raises(ValueError, match="k <= first"):
        wm.windows(data, 5, first=4)


def test_lesson_9_window_mlp_names_a_wrong_window_and_a_short_prompt():
    wm, model = _window_model()
    with pytest.raises(ValueError, match="got windows of 2 tokens, this model reads window=3"):
        model(np.zeros((1, 2), dtype=np.int64))
    with pytest.raises(ValueError, match="the prompt has 1 tokens, the window needs 3"):
        wm.generate(model, [1], 4, np.random.default_rng(0))


def test_lesson_9_generate_sees_only_the_last_window():
    wm, model = _window_model()
    a = wm.generate(model, [1, 2, 3, 4], 6, np.random.default_rng(0))
    b = wm.generate(model, [9, 2, 3, 4], 6, np.random.default_rng(0))  # differs outside the window only
    assert a[:1] == [1] and b[:1] == [9] and a[1:] == b[1:] and len(a) == 10


def test_lesson_10_one_head_matches_torchs_attention_values_and_gradients():
    import torch.nn.functional as F

    from minigpt.tensor import Tensor as LibTensor

    one_head = load("self-attention", "one_head")
    head = one_head.OneHead(6, 4, rng=np.random.default_rng(0)).to(np.float64)
    head.load_state_dict({n: rand(i, *a.shape) for i, (n, a) in enumerate(head.state_dict().items())})
    x = rand(9, 2, 5, 6)
    y = head(LibTensor(x, requires_grad=True))
    g = rand(10, *y.shape)
    (y * LibTensor(g)).sum().backward()

    w = {n: torch.tensor(a, requires_grad=True) for n, a in head.state_dict().items()}
    xt = torch.tensor(x)
    q, k, v = (F.linear(xt, w[f"{n}.weight"], w[f"{n}.bias"]) for n in ("c_q", "c_k", "c_v"))
    yt = F.scaled_dot_product_attention(q, k, v)  # no mask: every position sees every position
    (yt * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(y.data, yt.detach().numpy(), rtol=1e-12, atol=1e-12)
    for name, p in head.named_parameters():
        np.testing.assert_allclose(p.grad, w[name].grad.numpy(), rtol=1e-10, atol=1e-12)


def test_lesson_13_post_norm_and_no_residual_blocks_match_torch():
    from minigpt import gpt_torch
    from minigpt.config import GPTConfig
    from minigpt.tensor import Tensor

    variants = load("block", "block_variants")
    config = GPTConfig()
    rng = np.random.default_rng(0)
    ref = gpt_torch.Block(config).double()
    state = {name: rng.normal(0.0, 0.3, tuple(p.shape)) for name, p in ref.state_dict().items()}
    ref.load_state_dict({name: torch.from_numpy(a) for name, a in state.items()})
    x = rng.standard_normal((2, 6, config.n_embd))

    def post_norm(t):
        h = ref.ln_1(t + ref.attn(t))
        return ref.ln_2(h + ref.mlp(h))

    def no_residual(t):
        return ref.mlp(ref.ln_2(ref.attn(ref.ln_1(t))))

    for cls, torch_forward in ((variants.PostNormBlock, post_norm), (variants.NoResidualBlock, no_residual)):
        ours = cls(config, np.random.default_rng(1)).to(np.float64)
        ours.load_state_dict(state)
        xo, xt = Tensor(x, requires_grad=True), torch.from_numpy(x).requires_grad_()
        y, yt = ours(xo), torch_forward(xt)
        (y * y).sum().backward()
        yt.pow(2).sum().backward()
        np.testing.assert_allclose(y.data, yt.detach().numpy(), atol=1e-10, err_msg=cls.__name__)
        np.testing.assert_allclose(xo.grad, xt.grad.numpy(), atol=1e-10, err_msg=cls.__name__)
