import csv
from pathlib import Path
from minigpt_course import figures

here = Path(__file__).resolve().parent
rows = list(csv.DictReader(open(here / "profile-run.csv", newline="")))  # written by 01_first_look.py --report --save
total = sum(float(r["gflop"]) for r in rows)
for r in rows:
    print(f"{r['part']:32s} {float(r['percent_of_time']):5.1f}% of the time  {100 * float(r['gflop']) / total:5.1f}% of the GFLOP")
LABELS = {
    "zh": (["输出层 + 损失", "注意力（融合）", "块里的其余部分", "优化器和裁剪"], "占一步的百分比",
           "时间（有记录的一次运行）", "矩阵乘 FLOP"),
    "en": (["output layer + loss", "attention (fused)", "rest of the blocks", "optimizer, clipping"],
           "percent of one step", "time (documented run)", "matmul FLOPs"),
}
order = ["output layer + loss (6,831-way)", "attention (fused)", "everything else in the blocks", "optimizer and clipping"]
by_part = {r["part"]: r for r in rows}
time_pct = [float(by_part[p]["percent_of_time"]) for p in order]
flop_pct = [100 * float(by_part[p]["gflop"]) / total for p in order]
for lang, fig in figures.bilingual("fast-profile.png", size=(4.4, 3.0), font_size=12):
    names, xlabel, time_label, flop_label = LABELS[lang]
    ax = fig.subplots()
    ys = range(len(order))
    ax.barh([y - 0.2 for y in ys], time_pct, height=0.4, label=time_label, color="#1f77b4")
    ax.barh([y + 0.2 for y in ys], flop_pct, height=0.4, label=flop_label, color="#ff7f0e")
    ax.set_yticks(list(ys), names)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=9, loc="lower right")
