import warnings

import torch
from torch.autograd.gradcheck import GradcheckError


class TanhBug(torch.autograd.Function):  # y = tanh(x), dy/dx = 1 - y  (right: 1 - y^2)
    @staticmethod
    def forward(ctx, x):
        y = x.tanh()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * (1 - y)


x = torch.randn(3, dtype=torch.float64, generator=torch.Generator().manual_seed(0)).requires_grad_()
for name, f, inp in [("float64, tanh bug ", TanhBug.apply, x), ("float64, torch.tanh", torch.tanh, x),
                     ("float32, torch.tanh", torch.tanh, x.detach().float().requires_grad_())]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            print(f"{name}: passed {torch.autograd.gradcheck(f, (inp,))}")
        except GradcheckError as e:
            print(f"{name}: GradcheckError: {str(e).splitlines()[0]}")
    for w in caught:
        print(f"{'':19}  warning: {str(w.message).split('. ')[0]}.")
