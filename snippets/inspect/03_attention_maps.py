from matplotlib.colors import PowerNorm
from poems_cpu import body_start, load_maps
from minigpt_course import figures

_, poems = load_maps()
poem = next(p for p in poems if p.get("title") == "送李给事")
tokens, att = poem["tokens"], poem["att"]  # att: (L, H, T, T)
rows = slice(body_start(tokens), len(tokens) - 1)  # the rows that write the poem
starts = [2] + [i for i in range(rows.start, rows.stop) if tokens[i] in "<sep>，。"]  # 言, and where lines start
print(f"{poem['title']}: {len(tokens)} tokens; shown: rows {rows.start}..{rows.stop - 1} (writing the poem), "
      f"columns 0..{len(tokens) - 2} (everything it can look at)")

LABELS = {
    "zh": ("第 {l} 层 · 头 {h}", "被看的位置", "正在写的字"),
    "en": ("layer {l} · head {h}", "position looked at", "character written"),
}
for lang, fig in figures.bilingual("inspect-attention.png", size=(7.0, 7.6), dpi=130, font_size=9):
    title, xlabel, ylabel = LABELS[lang]
    axes = fig.subplots(att.shape[0], att.shape[1], sharex=True, sharey=True)
    for (l, h), ax in zip([(l, h) for l in range(4) for h in range(4)], axes.flat):
        ax.imshow(att[l, h, rows, : len(tokens) - 1], cmap="Blues", norm=PowerNorm(0.5, 0, 1),
                  aspect="auto", interpolation="nearest")
        ax.set_title(title.format(l=l + 1, h=h + 1), fontsize=8.5)
        ax.set_xticks(starts, [tokens[i] for i in starts], fontsize=7)
        ax.set_yticks([i - rows.start for i in starts[1:]], [tokens[i + 1] for i in starts[1:]], fontsize=7)
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel)
