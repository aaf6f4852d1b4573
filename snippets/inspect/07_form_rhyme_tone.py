import numpy as np
from poems_cpu import bench_record

from minigpt import poetry
from minigpt.data import load_poems
from minigpt_course import figures

forms = bench_record()["forms"]  # form -> [(rhyme %, tone share) of free, --strict, real], 50 prompts each
chance = poetry.baseline(load_poems())  # the controls: rhyme ends dealt at random, characters shuffled
print(f"{'':10}{'rhyme: free':>11}{'--strict':>9}{'real':>6}{'chance':>8}   "
      f"{'tones: free':>11}{'--strict':>9}{'real':>6}{'chance':>8}")
for form, ((fr, ft), (sr, st), (rr, rt)) in forms.items():
    c = chance[form]
    print(f"{form}  {fr:>11.0f}%{sr:>8.0f}%{rr:>5.0f}%{c.rhyme_chance:>8.0%}   "
          f"{ft:>11.2f}{st:>9.2f}{rt:>6.2f}{c.tone_chance:>8.2f}")

LABELS = {
    "zh": (("押韵的诗", "平仄合格的位置"), ("自由采样", "--strict", "真诗"), "打乱后的随机水平"),
    "en": (("poems that rhyme", "tone share"), ("free", "--strict", "real poems"),
           "chance (shuffled)"),
}
x = np.arange(len(forms))
for lang, fig in figures.bilingual("inspect-form.png", size=(5.6, 5.4), dpi=130, font_size=10,
                                 rect=(0, 0.05, 1, 1)):
    titles, names, chance_name = LABELS[lang]
    for k, ax in enumerate(fig.subplots(2, 1)):
        for j, name in enumerate(names):
            values = [cells[j][k] / (100 if k == 0 else 1) for cells in forms.values()]
            ax.bar(x + (j - 1) * 0.26, values, 0.26, label=name, color=("#999999", "#2b6cb0", "#c05621")[j])
        dots = [chance[f].rhyme_chance if k == 0 else chance[f].tone_chance for f in forms]
        ax.hlines(dots, x - 0.42, x + 0.42, color="black", linestyle="--", zorder=3, label=chance_name)
        ax.set_xticks(x, list(forms))
        ax.set_ylim(0, 1.05)
        ax.set_title(titles[k])
        ax.grid(axis="y", alpha=0.3)
    fig.legend(*ax.get_legend_handles_labels(), fontsize=8, ncol=4, loc="lower center")
