from minigpt.config import GPTConfig
from minigpt.nn import MultiHeadAttention

try:
    GPTConfig(n_embd=8, n_head=3)
except ValueError as e:
    print("GPTConfig:", e)

try:
    MultiHeadAttention(8, 3, block_size=16)
except ValueError as e:
    print("MultiHeadAttention:", e)
