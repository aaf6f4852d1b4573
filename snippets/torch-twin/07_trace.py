import numpy as np
import torch
from torch.nn import functional as F

from minigpt import gpt, gpt_torch
from minigpt.config import GPTConfig
from minigpt.convert import to_torch
from minigpt.tensor import Tensor

config = GPTConfig(vocab_size=69)
ours = gpt.MultiHeadAttention(config, np.random.default_rng(0)).to(np.float64)
attn = gpt_torch.MultiHeadAttention(config).double()
attn.load_state_dict(to_torch(ours.state_dict()))
xs = np.random.default_rng(1).standard_normal((2, 8, 64))  # (B, T, C)
x = torch.from_numpy(xs)

B, T, C = x.shape
nh, hs = attn.n_head, C // attn.n_head
print(f"   B, T, C = x.shape -> {B}, {T}, {C};  nh, hs -> {nh}, {hs}")
q = attn.c_q(x).view(B, T, nh, hs).transpose(1, 2)  # (B, nh, T, hs)
k = attn.c_k(x).view(B, T, nh, hs).transpose(1, 2)
v = attn.c_v(x).view(B, T, nh, hs).transpose(1, 2)
print(f"1  c_q(x).view().transpose(1, 2)  {str(tuple(q.shape)):14s} x3, a view: {q._base is not None}")
y = F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=True, dropout_p=0.0)  # (B, nh, T, hs)
print(f"2  scaled_dot_product_attention   {str(tuple(y.shape)):14s} our steps 3-6 in one call, strides {y.stride()}")
y2 = y.transpose(1, 2).contiguous().view(B, T, C)  # (B, T, C)
merged_view, copied = y.transpose(1, 2).is_contiguous(), y2.data_ptr() != y.data_ptr()
print(f"3  transpose().contiguous().view  {str(tuple(y2.shape)):14s} "
      f"transposed is contiguous: {merged_view}, a copy: {copied}")
out = attn.resid_dropout(attn.c_proj(y2))  # (B, T, C)
print(f"4  c_proj, resid_dropout          {tuple(out.shape)}")
with torch.no_grad():
    same_module = torch.equal(out, attn(x))
    same_numpy = np.abs(out.numpy() - ours(Tensor(xs)).data).max() < 1e-12
print(f"same as attn(x): {same_module}; same as the numpy module (float64, 1e-12): {same_numpy}")
