import torch

torch.manual_seed(0)
x = torch.randn(2, 3)  # (B, in)
W, b = torch.randn(3, 5), torch.randn(5)  # GPT-2's Conv1D: W is (in, out)
conv1d = x @ W + b  # (B, in) @ (in, out) -> (B, out)
linear = torch.nn.Linear(3, 5)  # weight (out, in): y = x @ weight.T + bias
print(f"Conv1D's W {tuple(W.shape)}, nn.Linear's weight {tuple(linear.weight.shape)}")
try:
    linear.load_state_dict({"weight": W, "bias": b})
except RuntimeError as e:
    print("as it is:", str(e).strip().splitlines()[-1].strip())
linear.load_state_dict({"weight": W.t(), "bias": b})
print("transposed: the same outputs as Conv1D:", torch.allclose(linear(x), conv1d))

x, W, b = torch.randn(2, 4), torch.randn(4, 4), torch.randn(4)  # c_proj is square: (C, C)
square = torch.nn.Linear(4, 4)
square.load_state_dict({"weight": W, "bias": b})  # no transpose: the shape fits, nothing complains
print(f"square, not transposed: loads, and the outputs are off by up to {(square(x) - (x @ W + b)).abs().max():.2f}")
