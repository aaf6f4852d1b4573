import numpy as np
import torch

from minigpt import gpt, gpt_torch
from minigpt.config import GPTConfig
from minigpt.convert import to_numpy, to_torch

config = GPTConfig(vocab_size=69)
numpy_gpt = gpt.GPT(config, seed=1)
torch_gpt = gpt_torch.GPT(config, seed=2)

sd = numpy_gpt.state_dict()  # {name: np.ndarray}
w = sd["wte.weight"]
print(f"numpy state_dict: {len(sd)} entries, e.g. 'wte.weight' {type(w).__name__} {w.dtype}")
sd_t = to_torch(sd)  # {name: torch.Tensor}
w = sd_t["wte.weight"]
print(f"to_torch:         {len(sd_t)} entries, e.g. 'wte.weight' {type(w).__name__} {w.dtype}")
torch_gpt.load_state_dict(sd_t)  # numpy -> torch

back = gpt.GPT(config, seed=3)
back.load_state_dict(to_numpy(torch_gpt.state_dict()))  # torch -> numpy
exact = all(np.array_equal(v, back.state_dict()[k]) for k, v in sd.items())
print(f"numpy -> torch -> numpy, every number bit-identical: {exact}")

with torch.no_grad():
    torch_gpt.wte.weight[0, 0] = 123.0
print(f"changing the torch copy changes the numpy model: {numpy_gpt.wte.weight.data[0, 0] == 123.0}")
