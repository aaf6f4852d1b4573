from minigpt.config import GPTConfig

try:
    GPTConfig(n_embd=8, n_head=3)
except ValueError as e:
    print("GPTConfig:", e)
