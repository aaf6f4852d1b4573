import torch

from minigpt.config import GPTConfig
from minigpt.gpt2 import to_hf
from minigpt.gpt_torch import GPT

# GPT-2 small's config.json: vocab_size 50257, n_positions 1024, n_layer 12, n_head 12, n_embd 768
config = GPTConfig(vocab_size=50257, block_size=1024, n_layer=12, n_head=12, n_embd=768)
with torch.device("meta"):  # shapes only, no memory
    model = GPT(config)
ours = model.state_dict()
theirs = to_hf(ours)
n = model.num_params()
mask = config.n_layer * config.block_size**2  # h.N.attn.bias: one (1, 1, 1024, 1024) causal mask per layer
print(f"{config.n_layer} layers x {config.n_embd} wide, in our twin: {n:,} parameters, {len(ours)} tensors; in the file: {len(theirs)} tensors + "
      f"{config.n_layer} masks")
print(f"float32: {4 * n / 1e6:.1f} MB of weights + {4 * mask / 1e6:.1f} MB of masks = {4 * (n + mask) / 1e6:.1f} MB")
for name, t in theirs.items():
    if name.startswith("transformer.h.0.") or ".h." not in name:
        print(f"  {name.removeprefix('transformer.'):<22} {str(tuple(t.shape)):<13}", end="")
        if "c_attn" in name:
            kind = name.rsplit(".", 1)[1]
            print(f"-> blocks.0.attn.c_q/c_k/c_v.{kind} {tuple(ours['blocks.0.attn.c_q.' + kind].shape)} each")
        else:
            mine = name.removeprefix("transformer.").replace("h.0.", "blocks.0.")
            print(f"-> {mine:<26} {tuple(ours[mine].shape)}")
