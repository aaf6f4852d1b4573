import torch


def run(make_opt, weight_decay, steps=100):
    p = torch.nn.Parameter(torch.tensor([1.0, 1.0], dtype=torch.float64))  # [quiet, busy]
    opt = make_opt([p], lr=0.01, weight_decay=weight_decay)
    for t in range(steps):
        p.grad = torch.tensor([0.0, 10.0 * (-1) ** t], dtype=torch.float64)  # quiet: no gradient; busy: +-10
        opt.step()
    return p.detach()


print("what weight_decay=0.1 does in 100 steps (p with decay - p without), lr=0.01, both p start at 1.0")
print("                     quiet (grad 0)   busy (grad +-10)")
for name, make_opt in (("AdamW (decoupled)", torch.optim.AdamW),  # p *= 1 - lr * wd, then the Adam step
                       ("Adam + L2 in grad", torch.optim.Adam)):  # g + wd * p, then the Adam step
    d = run(make_opt, 0.1) - run(make_opt, 0.0)
    print(f"{name:<20} {d[0]:14.4f}   {d[1]:16.4f}")
print(f"(1 - lr * wd)^100 - 1 = {(1 - 0.01 * 0.1) ** 100 - 1:.4f}")
