from minigpt.config import GPTConfig
from minigpt.gpt import KVCache
from minigpt.presets import get_preset

models = {
    "poems-cpu": get_preset("poems-cpu").gpt_config(6831),
    "GPT-2 small": GPTConfig(vocab_size=50257, block_size=1024, n_layer=12, n_head=12, n_embd=768),
}
MiB = 2**20
for name, c in models.items():
    L, C, T = c.n_layer, c.n_embd, c.block_size
    per_token = 2 * L * C * 4  # k and v, every layer, C float32 numbers each
    full = per_token * T  # 2 * L * block_size * C * 4 bytes, batch 1
    cache = KVCache(c, batch_size=1)  # the real buffers, zeros
    buffers = sum(b.nbytes for b in cache.k + cache.v)
    params = c.vocab_size * C + T * C + L * (12 * C * C + 13 * C) + 2 * C  # wte, wpe, blocks, ln_f
    print(f"{name} (L={L}, C={C}, block_size={T}), float32, batch 1:")
    print(f"  per token 2*L*C*4 = {per_token:,} bytes; full cache {full / MiB:.1f} MiB "
          f"(buffers counted: {buffers / MiB:.1f} MiB)")
    print(f"  weights {params:,} x 4 bytes = {params * 4 / MiB:.1f} MiB; cache / weights = {full / (params * 4):.2f}")
c = models["GPT-2 small"]
for dtype, size in (("float32", 4), ("float16", 2)):
    print(f"GPT-2 small, {dtype}, 1024 tokens: " + ", ".join(
        f"batch {B} {2 * c.n_layer * B * c.block_size * c.n_embd * size / MiB:,.0f} MiB" for B in (1, 8, 64)))
