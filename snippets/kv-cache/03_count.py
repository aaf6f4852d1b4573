import numpy as np

from minigpt.gpt import GPT
from minigpt.presets import get_preset
from minigpt.tensor import Tensor, no_grad

config = get_preset("poems-cpu").gpt_config(6831)
L, C, V = config.n_layer, config.n_embd, config.vocab_size
A = 12 * L * C * C + C * V  # per position: q, k, v, c_proj (4C^2) + MLP (8C^2) per layer, then the head


def step(n):  # one new token that sees n positions: A + scores and att @ v, n*C each, per layer
    return A + 2 * L * n * C


def full(n):  # every one of n positions, each scored against all n (the masked ones too)
    return n * A + 2 * L * n * n * C


counted = [0]
matmul = Tensor.matmul


def counting(a, b):  # (..., m, k) @ (..., k, n): m*k*n multiply-adds per batch element
    out = matmul(a, b)
    counted[0] += int(np.prod(out.shape)) * a.shape[-1]
    return out


Tensor.matmul = counting
model = GPT(config, seed=0)
rng = np.random.default_rng(0)
print(f"poems-cpu: L={L}, C={C}, V={V}; A = 12*L*C^2 + C*V = {12 * L * C * C:,} + {C * V:,} = {A:,}")
print("n    no cache: formula  counted  cache: formula  counted  ratio")
with no_grad():
    for n in (16, 64, 256):
        idx = rng.integers(0, V, size=(1, n))  # (1, n)
        counted[0] = 0
        model(idx)  # no cache: all n positions
        no_cache = counted[0]
        cache = model.new_kv_cache(1)
        model(idx[:, :-1], kv_cache=cache)  # the first n-1 positions go into the cache
        counted[0] = 0
        model(idx[:, -1:], kv_cache=cache)  # one new token against n keys
        print(f"{n:<4} {full(n):>17,}  {no_cache == full(n)!s:7}  {step(n):>14,}  "
              f"{counted[0] == step(n)!s:7}  {full(n) / step(n):5.1f}")
    N = 32
    for use_cache in (False, True):
        counted[0] = 0
        model.generate(np.array([[1]]), N, rng=np.random.default_rng(0), use_cache=use_cache)
        formula = sum(step(n) for n in range(1, N + 1)) if use_cache else sum(full(n) for n in range(1, N + 1))
        print(f"{N} tokens from <bos>, use_cache={use_cache!s:5}: formula {formula:,}, counted {counted[0]:,}")
N = 256
total_full, total_step = sum(full(n) for n in range(1, N + 1)), sum(step(n) for n in range(1, N + 1))
print(f"{N} tokens (formula): no cache {total_full:,}, cache {total_step:,}, ratio {total_full / total_step:.1f}")
