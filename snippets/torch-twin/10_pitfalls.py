import numpy as np
import torch

from minigpt import gpt, gpt_torch
from minigpt.config import GPTConfig
from minigpt.convert import to_numpy, to_torch

config = GPTConfig(vocab_size=69, n_layer=1)
numpy_gpt, torch_gpt = gpt.GPT(config, seed=0), gpt_torch.GPT(config, seed=0)

try:
    torch_gpt.load_state_dict(numpy_gpt.state_dict())
except RuntimeError as e:
    print(f"RuntimeError: {str(e).splitlines()[1].strip()}")

try:
    torch_gpt.wte.weight.numpy()
except RuntimeError as e:
    print(f"RuntimeError: {e}")

state64 = {k: v.astype(np.float64) for k, v in numpy_gpt.state_dict().items()}
torch_gpt.load_state_dict(to_torch(state64))  # float64 -> float32 model
print(f"float64 loaded into a float32 torch model: wte.weight is {torch_gpt.wte.weight.dtype}")

nano = {k: v for k, v in numpy_gpt.state_dict().items() if ".c_q." not in k and ".c_k." not in k and ".c_v." not in k}
nano["blocks.0.attn.c_attn.weight"] = np.zeros((192, 64), np.float32)  # (3C, C): q, k, v stacked
try:
    torch_gpt.load_state_dict(to_torch(nano))
except RuntimeError as e:
    missing, unexpected = str(e).split("Missing key(s) in state_dict: ")[1].split("Unexpected key(s) in state_dict: ")
    print(f"RuntimeError: Missing key(s) in state_dict: {missing.split(',')[0]}, ... ({missing.count(',') + 1} keys)")
    print(f"              Unexpected key(s) in state_dict: {unexpected.strip()}")

x, y = np.zeros((1, 4), dtype=np.int64), np.ones((1, 4), dtype=np.int64)
for name, model in (("ours", numpy_gpt), ("torch", torch_gpt)):
    model(x, y)[1].backward()
    g1 = np.array(to_numpy(model.wte.weight.grad), copy=True)  # (V, C)
    model(x, y)[1].backward()  # grad += g
    print(f"{name:5s}: a second backward without zero_grad doubles the gradient: "
          f"{np.allclose(to_numpy(model.wte.weight.grad), 2 * g1)}")
