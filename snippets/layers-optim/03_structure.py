import numpy as np

from toy import V, TinyLM, pairs

model = TinyLM(C=16, rng=np.random.default_rng(0))
print(f"V={V} C=16")
print(f"{'name':<16} {'shape':<9} {'numbers':>7}  {'mean':>6}  {'std':>6}")
for name, p in model.named_parameters():
    print(f"{name:<16} {str(p.shape):<9} {p.data.size:>7}  {round(p.data.mean(), 3) + 0.0:6.3f}  {p.data.std():6.3f}")
print(f"{len(model.parameters())} tensors, {sum(p.data.size for p in model.parameters()):,} numbers")
x, y = pairs()
print("x", x.shape, "-> logits", model(x).shape)
