import os
from pathlib import Path

from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import PowerNorm
from matplotlib.figure import Figure
from poems_cpu import body_start, load_maps

_, poems = load_maps()
poem = next(p for p in poems if p.get("title") == "送李给事")
tokens, att = poem["tokens"], poem["att"]  # att: (L, H, T, T)
rows = slice(body_start(tokens), len(tokens) - 1)  # the rows that write the poem
starts = [2] + [i for i in range(rows.start, rows.stop) if tokens[i] in "<sep>，。"]  # 言, and where lines start
print(f"{poem['title']}: {len(tokens)} tokens; shown: rows {rows.start}..{rows.stop - 1} (writing the poem), "
      f"columns 0..{len(tokens) - 2} (everything it can look at)")

docs = Path(os.environ.get("MINIGPT_DOCS", Path(__file__).resolve().parents[2] / "docs"))
LABELS = {  # the page's language: Chinese at docs/assets, English at docs/en/assets
    "assets/figures": ("第 {l} 层 · 头 {h}", "被看的位置", "正在写的字", ["Noto Sans CJK SC", "DejaVu Sans"]),
    "en/assets/figures": ("layer {l} · head {h}", "position looked at", "character written", ["DejaVu Sans", "Noto Sans CJK SC"]),
}
for folder, (title, xlabel, ylabel, fonts) in LABELS.items():
    with rc_context({"font.family": fonts, "font.size": 9}):
        fig = Figure(figsize=(7.0, 7.6), dpi=130)
        FigureCanvasAgg(fig)
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
        fig.tight_layout()
        (docs / folder).mkdir(parents=True, exist_ok=True)
        fig.savefig(docs / folder / "inspect-attention.png", metadata={"Software": None})
    print(f"saved docs/{folder}/inspect-attention.png")
