from minigpt.presets import get_preset
from minigpt_course import figures

config = get_preset("poems-cpu").gpt_config(6831)
L, C, V = config.n_layer, config.n_embd, config.vocab_size
A = 12 * L * C * C + C * V
ns = list(range(1, 257))
step = [A + 2 * L * n * C for n in ns]  # multiply-adds, one new token seeing n positions
full = [n * s for n, s in zip(ns, step)]  # no cache: all n positions, n times as much
# measured by 07_timing.py --report --repeats 41 on the course's build machine:
# 2 cores of an Intel Xeon, shared (load average about 6), torch 2.13.0+cpu, 1 thread; median ms per step
MEASURED = {16: (3.06, 2.25), 32: (3.54, 2.03), 64: (4.77, 2.21), 128: (7.65, 2.29), 256: (13.56, 2.79)}
print("no cache / cache:   multiply-adds   measured (stored)")
for n, (slow, fast) in MEASURED.items():
    print(f"  n = {n:<3}  {full[n - 1] / step[n - 1]:21.0f}  {slow / fast:18.1f}")
rate = full[255] / MEASURED[256][0]  # multiply-adds per ms, no cache at n = 256
print(f"n = 256, no cache: {full[255]:,} multiply-adds in {MEASURED[256][0]} ms = {rate / 1e6:.1f} million per ms")
print(f"the cached step's {step[255]:,} at that rate: {step[255] / rate:.2f} ms; measured {MEASURED[256][1]} ms")

LABELS = {
    "zh": ("上下文长度 n（词元）", "每个词元的乘加次数", "每个词元的时间（毫秒）", "不用缓存", "用 KV 缓存",
           "公式：poems-cpu 的形状", "实测：2 核 Xeon，torch 单线程，41 次取中位数"),
    "en": ("context length n (tokens)", "multiply-adds per token", "ms per token", "no cache",
           "KV cache", "formula: poems-cpu's shape",
           "measured: 2-core Xeon, torch, 1 thread, median of 41"),
}
for lang, fig in figures.bilingual("kv-cache-time.png", size=(5.0, 6.0), font_size=11):
    xlabel, macs, ms, no_cache, cache, top, bottom = LABELS[lang]
    ax1, ax2 = fig.subplots(2, 1, sharex=True)
    ax1.plot(ns, full, color="C3", label=no_cache)
    ax1.plot(ns, step, color="C0", label=cache)
    ax1.set_yscale("log")
    ax1.set_ylabel(macs)
    ax1.set_title(top, fontsize=10)
    xs = list(MEASURED)
    ax2.plot(xs, [MEASURED[n][0] for n in xs], color="C3", marker="o", label=no_cache)
    ax2.plot(xs, [MEASURED[n][1] for n in xs], color="C0", marker="s", label=cache)
    ax2.set_ylim(0, None)
    ax2.set_ylabel(ms)
    ax2.set_xlabel(xlabel)
    ax2.set_xticks([0, 64, 128, 192, 256])
    ax2.set_title(bottom, fontsize=10)
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=9)
