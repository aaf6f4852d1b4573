"""Every op of minigpt.tensor against PyTorch autograd (float64), plus storage and error checks."""

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minigpt.tensor import Tensor, contiguous_strides, flat_offset, no_grad

SETTINGS = settings(max_examples=25, deadline=None)
RTOL, ATOL = 1e-10, 1e-12


def compare(ours, theirs, arrays, seed=0):
    """Apply ours/theirs to the same float64 arrays; values and every input's gradient must agree."""
    xs = [Tensor(a, requires_grad=True) for a in arrays]
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    out, tout = ours(*xs), theirs(*ts)
    assert out.dtype == np.float64
    assert out.shape == tuple(tout.shape)
    np.testing.assert_allclose(out.data, tout.detach().numpy(), rtol=RTOL, atol=ATOL)
    g = np.random.default_rng(seed).standard_normal(out.shape)
    out.backward(g)
    tout.backward(torch.tensor(g))
    for x, t in zip(xs, ts):
        np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=RTOL, atol=ATOL)
        assert x.grad.shape == x.shape


def randn(seed, shape, positive=False, away_from_zero=False):
    a = np.random.default_rng(seed).standard_normal(shape)
    if positive:
        return np.abs(a) + 0.5
    if away_from_zero:
        return np.sign(a) * (np.abs(a) + 0.5) + (a == 0)
    return a


two_shapes = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, min_side=1, max_side=4)
shapes = hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=5)
seeds = st.integers(0, 2**31 - 1)


# --- binary ops with broadcasting -------------------------------------------------------------

BINARY = {
    "add": (lambda a, b: a + b, {}),
    "sub": (lambda a, b: a - b, {}),
    "mul": (lambda a, b: a * b, {}),
    "div": (lambda a, b: a / b, {"away": True}),
}


@pytest.mark.parametrize("name", BINARY)
@SETTINGS
@given(shapes=two_shapes, seed=seeds)
def test_binary_ops_broadcast_like_torch(name, shapes, seed):
    fn, opts = BINARY[name]
    a = randn(seed, shapes.input_shapes[0], positive=opts.get("positive", False))
    b = randn(seed + 1, shapes.input_shapes[1], away_from_zero=opts.get("away", False))
    compare(fn, fn, [a, b], seed)


@pytest.mark.parametrize(
    "fn",
    [
        lambda a: 2.5 + a, lambda a: a + 2.5, lambda a: 3.0 - a, lambda a: a - 3.0, lambda a: 0.5 * a,
        lambda a: a * 0.5, lambda a: 1.5 / a, lambda a: a / 4.0, lambda a: a**2, lambda a: a**3.5,
        lambda a: a**-1.5, lambda a: -a,
    ],
)
@SETTINGS
@given(shape=shapes, seed=seeds)
def test_scalar_and_reflected_ops(fn, shape, seed):
    compare(fn, fn, [randn(seed, shape, positive=True)], seed)


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_numpy_array_on_the_left_gives_a_tensor(shape, seed):
    c = randn(seed + 7, shape)
    compare(lambda a: c * a + c, lambda a: torch.tensor(c) * a + torch.tensor(c), [randn(seed, shape)], seed)


# --- matmul --------------------------------------------------------------------------------------


@st.composite
def matmul_shapes(draw):
    batch = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, min_side=1, max_side=3))
    m, k, n = draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(1, 5))
    a = batch.input_shapes[0] + (m, k)
    b = batch.input_shapes[1] + (k, n)
    return a, b


@SETTINGS
@given(ab=matmul_shapes(), seed=seeds)
def test_matmul_batched_and_broadcast_like_torch(ab, seed):
    a, b = ab
    compare(lambda x, y: x @ y, lambda x, y: x @ y, [randn(seed, a), randn(seed + 1, b)], seed)
    compare(lambda x, y: x.matmul(y), lambda x, y: x.matmul(y), [randn(seed, a), randn(seed + 1, b)], seed)


def test_matmul_of_linear_layer_shapes():
    x, w = randn(0, (2, 3, 5)), randn(1, (4, 5))
    compare(lambda x, w: x @ w.T, lambda x, w: x @ w.T, [x, w])


def test_pow_takes_a_number_exponent_only():
    with pytest.raises(TypeError, match="p must be a number"):
        Tensor(np.ones(2)) ** Tensor(np.ones(2))


def test_matmul_shape_mismatch_names_both_shapes():
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4, 5\)"):
        Tensor(np.zeros((2, 3))) @ Tensor(np.zeros((4, 5)))
    with pytest.raises(ValueError, match="batch dims"):
        Tensor(np.zeros((2, 3, 4))) @ Tensor(np.zeros((3, 4, 5)))


# --- reductions and elementwise functions ------------------------------------------------


@st.composite
def shape_and_dim(draw):
    shape = draw(shapes)
    return shape, draw(st.integers(-len(shape), len(shape) - 1)), draw(st.booleans())


@SETTINGS
@given(sd=shape_and_dim(), seed=seeds)
def test_sum_mean_max_along_dim(sd, seed):
    shape, dim, keepdim = sd
    a = randn(seed, shape)
    compare(lambda x: x.sum(dim=dim, keepdim=keepdim), lambda x: x.sum(dim=dim, keepdim=keepdim), [a], seed)
    compare(lambda x: x.mean(dim=dim, keepdim=keepdim), lambda x: x.mean(dim=dim, keepdim=keepdim), [a], seed)
    compare(lambda x: x.max(dim=dim, keepdim=keepdim), lambda x: x.max(dim=dim, keepdim=keepdim).values, [a], seed)


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_full_reductions(shape, seed):
    a = randn(seed, shape)
    for fn in (lambda x: x.sum(), lambda x: x.mean(), lambda x: x.max()):
        compare(fn, fn, [a], seed)


def test_sum_over_several_dims():
    fn = lambda x: x.sum(dim=(0, 2), keepdim=True)  # noqa: E731
    compare(fn, fn, [randn(0, (2, 3, 4))])


UNARY = {
    "exp": (lambda x: x.exp(), lambda x: x.exp(), False),
    "log": (lambda x: x.log(), lambda x: x.log(), True),
    "tanh": (lambda x: x.tanh(), lambda x: x.tanh(), False),
    "relu": (lambda x: x.relu(), lambda x: x.relu(), False),
    "neg": (lambda x: -x, lambda x: -x, False),
    "gelu": (lambda x: x.gelu(), lambda x: torch.nn.functional.gelu(x, approximate="tanh"), False),
    "softmax": (lambda x: x.softmax(dim=-1), lambda x: x.softmax(dim=-1), False),
    "softmax0": (lambda x: x.softmax(dim=0), lambda x: x.softmax(dim=0), False),
    "log_softmax": (lambda x: x.log_softmax(dim=-1), lambda x: x.log_softmax(dim=-1), False),
    "log_softmax0": (lambda x: x.log_softmax(0), lambda x: x.log_softmax(0), False),
}


@pytest.mark.parametrize("name", UNARY)
@SETTINGS
@given(shape=shapes, seed=seeds)
def test_unary_ops_like_torch(name, shape, seed):
    ours, theirs, positive = UNARY[name]
    a = randn(seed, shape, positive=positive) * (1 if positive else 3)
    compare(ours, theirs, [a], seed)


def test_softmax_is_stable_for_huge_logits():
    a = np.array([[1e4, -1e4, 0.0], [-1e4, -1e4, -1e4]], dtype=np.float32)
    for fn in (lambda x: x.softmax(-1), lambda x: x.log_softmax(-1)):
        x = Tensor(a, requires_grad=True)
        out = fn(x)
        out.sum().backward()
        assert np.isfinite(out.data).all() and np.isfinite(x.grad).all()
    np.testing.assert_allclose(Tensor(a).softmax(-1).data[1], [1 / 3] * 3, rtol=1e-6)


# --- shapes, views, indexing -------------------------------------------------------------


@st.composite
def reshapes(draw):
    shape = draw(shapes)
    n = int(np.prod(shape))
    factors = [d for d in range(1, n + 1) if n % d == 0]
    d = draw(st.sampled_from(factors))
    return shape, (d, -1) if draw(st.booleans()) else (n // d, d)


@SETTINGS
@given(sr=reshapes(), seed=seeds)
def test_reshape_and_view_like_torch(sr, seed):
    shape, new = sr
    a = randn(seed, shape)
    compare(lambda x: x.reshape(new) * 2, lambda x: x.reshape(new) * 2, [a], seed)
    compare(lambda x: x.view(*new) * 2, lambda x: x.view(*new) * 2, [a], seed)


@SETTINGS
@given(shape=shapes, seed=seeds, data=st.data())
def test_permute_transpose_contiguous_like_torch(shape, seed, data):
    perm = data.draw(st.permutations(range(len(shape))))
    d0, d1 = data.draw(st.integers(0, len(shape) - 1)), data.draw(st.integers(-len(shape), len(shape) - 1))
    a = randn(seed, shape)
    compare(lambda x: x.permute(*perm) * 3, lambda x: x.permute(*perm) * 3, [a], seed)
    compare(lambda x: x.transpose(d0, d1).contiguous() * 3, lambda x: x.transpose(d0, d1).contiguous() * 3, [a], seed)
    x, t = Tensor(a).permute(*perm), torch.tensor(a).permute(*perm)
    assert x.stride() == t.stride() and x.is_contiguous() == t.is_contiguous()


@SETTINGS
@given(shape=hnp.array_shapes(min_dims=2, max_dims=3, min_side=2, max_side=5), seed=seeds)
def test_indexing_with_ints_slices_and_arrays(shape, seed):
    a = randn(seed, shape)
    idx = np.random.default_rng(seed).integers(0, shape[0], size=(3, 2))  # repeats must add up
    col = np.random.default_rng(seed).integers(0, shape[1], size=4)
    cases = [
        (1, 1), ((slice(None), 0), (slice(None), 0)), ((slice(1, None), slice(None, None, 2)),) * 2,
        (-1, -1), (idx, torch.from_numpy(idx)), ((slice(None), col), (slice(None), torch.from_numpy(col))),
    ]
    for ours, theirs in cases:
        compare(lambda x: x[ours], lambda x: x[theirs], [a], seed)


def test_embedding_lookup_accumulates_repeated_rows():
    w = Tensor(np.arange(6.0).reshape(3, 2), requires_grad=True)
    w[np.array([[0, 2], [2, 2]])].sum().backward()
    np.testing.assert_array_equal(w.grad, [[1, 1], [0, 0], [3, 3]])


@SETTINGS
@given(shapes=two_shapes, seed=seeds)
def test_masked_fill_like_torch(shapes, seed):
    mask_shape, x_shape = shapes.input_shapes
    full = np.broadcast_shapes(mask_shape, x_shape)
    if full != x_shape:
        x_shape = full
    mask = np.random.default_rng(seed).random(mask_shape) < 0.4
    compare(lambda x: x.masked_fill(mask, -7.0), lambda x: x.masked_fill(torch.tensor(mask), -7.0),
            [randn(seed, x_shape)], seed)


# --- graph mechanics ---------------------------------------------------------------------------


def test_gradients_accumulate_and_reused_nodes_sum():
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    y = x * x + x  # x is used three times
    y.sum().backward()
    np.testing.assert_array_equal(x.grad, [3.0, 5.0])
    (x * 2).sum().backward()  # a second backward adds to the leaf
    np.testing.assert_array_equal(x.grad, [5.0, 7.0])


def test_backward_twice_through_the_same_graph_does_not_double_count_intermediates():
    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    h = x * 3
    loss = (h * h).sum()
    loss.backward()
    loss.backward()
    np.testing.assert_array_equal(x.grad, 2 * 18 * x.data)


def test_deep_graph_does_not_hit_recursion_limit():
    x = Tensor(np.ones(3), requires_grad=True)
    y = x
    for _ in range(5000):
        y = y + 1.0
    y.sum().backward()
    np.testing.assert_array_equal(x.grad, np.ones(3))


def test_backward_on_non_scalar_without_gradient_raises():
    y = Tensor(np.ones((2, 3)), requires_grad=True) * 2
    with pytest.raises(ValueError, match=r"scalar.*\(2, 3\)"):
        y.backward()


def test_no_grad_records_nothing():
    x = Tensor(np.ones(2), requires_grad=True)
    with no_grad():
        y = x * 2
    assert not y.requires_grad and y._prev == ()


# --- dtypes ----------------------------------------------------------------------------------------


def test_float32_by_default_and_scalars_do_not_promote():
    x = Tensor([1.0, 2.0], requires_grad=True)
    assert x.dtype == np.float32
    y = ((x * 0.5 + 1.0) / 3.0 - 2.0) ** 2
    y = (np.float64(2.0) * y).gelu().exp().tanh().softmax(-1).reshape(1, 2) @ Tensor(np.ones((2, 2), np.float32))
    assert y.dtype == np.float32
    y.sum().backward()
    assert x.grad.dtype == np.float32
    assert Tensor(np.ones(2)).dtype == np.float64  # float64 arrays stay float64


def test_integer_data_cannot_require_grad():
    assert Tensor(np.array([1, 2])).dtype.kind == "i"
    with pytest.raises(TypeError, match="floating"):
        Tensor(np.array([1, 2]), requires_grad=True)


# --- row-major storage --------------------------------------------------------------------------


@SETTINGS
@given(shape=shapes, seed=seeds)
def test_strides_agree_with_numpy_and_torch(shape, seed):
    a = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    x, t = Tensor(a), torch.from_numpy(a)
    assert contiguous_strides(shape) == x.stride() == tuple(t.stride())
    assert x.stride() == tuple(s // a.itemsize for s in a.strides)
    assert x.is_contiguous() and t.is_contiguous()
    index = tuple(int(i) for i in np.random.default_rng(seed).integers(0, shape))
    assert a.ravel()[flat_offset(index, x.stride())] == a[index]
    xt, tt = x.transpose(0, -1), t.transpose(0, -1)
    assert xt.stride() == tuple(tt.stride()) and xt.is_contiguous() == tt.is_contiguous()


def test_views_share_memory_and_contiguous_copies():
    x = Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    for y in (x.reshape(6, 4), x.view(4, 6), x.permute(2, 0, 1), x.transpose(0, 1), x[:, 1]):
        assert np.shares_memory(x.data, y.data)
    p = x.permute(0, 2, 1)
    assert not p.is_contiguous() and p.stride() == (12, 1, 4)
    c = p.contiguous()
    assert c.is_contiguous() and not np.shares_memory(c.data, x.data) and c.stride() == (12, 3, 1)
    assert x.contiguous() is x
    np.testing.assert_array_equal(c.data, p.data)
    assert flat_offset((1, 2, 3), (12, 4, 1)) == 23 and flat_offset((0, 1), (4, 1), offset=5) == 6
    assert x[1].stride() == (4, 1) and x[:, ::2].stride() == torch.arange(24.0).reshape(2, 3, 4)[:, ::2].stride()


def test_view_on_non_contiguous_raises_like_torch():
    p = Tensor(np.zeros((2, 3, 4))).permute(0, 2, 1)
    with pytest.raises(ValueError, match="contiguous"):
        p.view(2, 12)
    with pytest.raises(RuntimeError):
        torch.zeros(2, 3, 4).permute(0, 2, 1).view(2, 12)
    assert p.reshape(2, 12).shape == (2, 12)  # reshape copies instead


def test_reshape_to_incompatible_size_raises():
    with pytest.raises(ValueError, match=r"\(2, 3\).*6 elements.*\(4, 2\)"):
        Tensor(np.zeros((2, 3))).reshape(4, 2)
    with pytest.raises(ValueError, match="6 elements"):
        Tensor(np.zeros((2, 3))).view(5)
    with pytest.raises(ValueError, match="6 elements"):
        Tensor(np.zeros((2, 3))).permute(1, 0).view(4, -1)
    with pytest.raises(ValueError, match="6 elements"):
        Tensor(np.zeros((2, 3))).reshape(-1, 4)


def test_gradients_that_share_one_array_stay_independent():
    # add hands the same gradient array to both inputs; neither may see the other's later changes
    a = Tensor(np.ones((2, 3)), requires_grad=True)
    b = Tensor(np.ones((2, 3)), requires_grad=True)
    (a + b).sum().backward()
    a.grad *= 0.5  # what gradient clipping does, in place
    assert np.array_equal(b.grad, np.ones((2, 3)))
    # an intermediate that receives one array twice (y + y) accumulates 2g, and a leaf used through
    # a view and an index still gets every contribution
    x = Tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    y = x.reshape(3, 2)
    z = (y + y).sum() + x[0].sum() + x[np.array([1, 1])].sum()
    z.backward()
    assert np.array_equal(x.grad, np.array([[3.0, 3.0, 3.0], [4.0, 4.0, 4.0]]))
