import numpy as np

import minigpt.gpt
from minigpt.config import GPTConfig
from minigpt.gpt import GPT
from minigpt_course import figures

config = GPTConfig(vocab_size=69)  # 2 layers, 4 heads, head size 16, context 32
model = GPT(config, seed=0)
store, seen = minigpt.gpt.cached_keys_values, []


def watching(kv_cache, k, v, start):  # k, v: (B, nh, T, hs), this call's new tokens
    seen.append((start, k.shape[2]))
    return store(kv_cache, k, v, start)  # (B, nh, start+T, hs)


minigpt.gpt.cached_keys_values = watching
model.generate(np.array([[20, 46, 53]]), 4, temperature=0.0)  # a prompt of 3, then 4 new tokens
calls = seen[::config.n_layer]  # layer 0 of each forward call
print("forward calls (start, T):", calls, "| cache.length after each:", [s + t for s, t in calls])

SLOTS, n = 7, calls[-1][0] + 1  # slots drawn of block_size; query rows drawn
WORDS = {"zh": ("预填充：位置 {}..{}，start = {}", "解码一步：位置 {}，start = {}",
                "分数（查询 × 键）", "这次算 {} × {} 个分数\n不用缓存：{} × {}"),
         "en": ("prefill: positions {}..{}, start = {}", "decode step: position {}, start = {}",
                "scores (query × key)", "this call: {} × {} scores\nno cache: {} × {}")}

for step, lang, fig in figures.steps("kv-cache-steps", len(calls), size=(4.5, 3.05), dpi=120, font_size=12):
    start, T = calls[step - 1]
    end = start + T  # cache.length after this call
    w = WORDS[lang]
    ax = figures.canvas(fig, 8.6, 5.8)
    ax.text(0, 5.5, w[0].format(start, end - 1, start) if T > 1 else w[1].format(start, start), va="center")
    for b, name in enumerate(["cache.k[0]", "cache.v[0]"]):
        ax.text(1.4 + 2.0 * b, 4.75, name, ha="center", va="center", family=figures.CODE_FONT, size=9)
        for i in range(SLOTS):  # slot i of the (B, nh, block_size, hs) buffer
            y, new, filled = 3.9 - 0.5 * i, start <= i < end, i < end
            figures.box(ax, 0.7 + 2.0 * b, y, f"{name[6]}{i}" if filled else "", figures.PALETTE[i] if filled else
                        "white", w=1.4, h=0.5, lw=2.2 if new else 0.8, ls="-" if filled else ":",
                        weight="bold" if new else "normal")
            if b == 0:
                ax.text(0.5, y + 0.25, str(i), ha="right", va="center", color="#666")
    ax.text(0.5, 0.55, f"⋮  block_size = {config.block_size}", va="center")
    ax.text(0.7, 0.1, f"length: {start} → {end}", va="center", family=figures.CODE_FONT)
    ax.text(6.5, 5.0, w[2], ha="center", va="center")
    for i in range(n):  # query i against key j
        now = start <= i < end  # a query of this call
        ax.text(4.9, 4.15 - 0.5 * i, f"q{i}", ha="right", va="center", weight="bold" if now else "normal")
        ax.text(5.25 + 0.5 * i, 4.6, f"k{i}", ha="center", va="center", size=9, color="#666")
        for j in range(n):
            x0, y0 = 5.0 + 0.5 * j, 3.9 - 0.5 * i
            if now and j <= i:  # computed by this call
                figures.box(ax, x0, y0, "", figures.PALETTE[j], w=0.5, h=0.5, lw=1.6)
            elif now and j < end:  # computed, then hidden by the causal mask
                figures.box(ax, x0, y0, "", "#d0d0d0", w=0.5, h=0.5, hatch="//", edge="#888")
            elif i < start and j <= i:  # an earlier call's row: used once, not kept
                figures.box(ax, x0, y0, "", "#f0f0f0", w=0.5, h=0.5, edge="#bbb")
            else:
                figures.box(ax, x0, y0, "", "white", w=0.5, h=0.5, edge="#ddd", ls=":")
    ax.text(4.6, 0.9, w[3].format(T, end, end, end), va="top", size=11, linespacing=1.5)
