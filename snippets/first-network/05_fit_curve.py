import matplotlib
import numpy as np

from minigpt_course import figures

rng = np.random.default_rng(0)
x = rng.uniform(-3, 3, (64, 1))  # (64, 1) inputs
y = np.sin(x) + rng.normal(0, 0.1, (64, 1))  # (64, 1) targets: a curve + noise
H = 10  # 1 -> 10 -> 1
start = np.concatenate([rng.normal(0, 1, 2 * H), rng.normal(0, 0.3, H), [0.0]])


def net(t, x, act):  # all 31 parameters in one vector t
    W1, b1 = t[:H].reshape(1, H), t[H:2 * H]  # (1, 10), (10,)
    W2, b2 = t[2 * H:3 * H].reshape(H, 1), t[3 * H:]  # (10, 1), (1,)
    return act(x @ W1 + b1) @ W2 + b2  # (B, 1) -> (B, 10) -> (B, 1)


def loss(t, x, y, act):  # mean squared error over a batch
    return np.mean((net(t, x, act) - y) ** 2)


def train(act, steps=2000, lr=0.05, B=16, h=1e-6):
    t, pick, losses, fits = start.copy(), np.random.default_rng(1), [], {}
    for step in range(steps + 1):
        losses.append(loss(t, x, y, act))  # on all 64 points
        fits[step] = net(t, grid, act)[:, 0]
        i = pick.choice(64, B, replace=False)  # a batch of 16 points
        base, grad = loss(t, x[i], y[i], act), np.zeros_like(t)
        for j in range(t.size):  # nudge each parameter in turn
            t[j] += h
            grad[j] = (loss(t, x[i], y[i], act) - base) / h
            t[j] -= h
        t -= lr * grad
    return losses, fits


grid = np.linspace(-3, 3, 121)[:, None]  # (121, 1) where the fit is drawn
runs = {"tanh": train(np.tanh), "none": train(lambda a: a)}
line = np.polyval(np.polyfit(x[:, 0], y[:, 0], 1), x)  # the best straight line
best = np.mean((line - y) ** 2)
for name, (losses, _) in runs.items():
    shown = "  ".join(f"{s}: {losses[s]:.4f}" for s in (0, 20, 100, 500, 2000))
    print(f"{name:>4}: loss {shown}")
print(f"best straight line: loss {best:.4f}")

WORDS = {  # the figure's labels, in the page's language
    "zh": ["第 {} 步", "不加 tanh，第 2000 步", "损失（64 个点的均值）",
           "步数", "加 tanh", "不加 tanh", "最好的直线"],
    "en": ["step {}", "no tanh, step 2000", "loss (mean over 64 points)", "step",
           "with tanh", "without tanh", "best straight line"],
}
FONTS = {lang: ["Noto Sans CJK SC", "DejaVu Sans"] for lang in WORDS}
colors = matplotlib.colormaps["viridis"]
for lang, fig in figures.bilingual("first-network-fit.png", size=(5.0, 6.4), font_size=11, fonts=FONTS):
    step_w, no_tanh, loss_w, steps_w, with_w, without_w, line_w = WORDS[lang]
    top, bottom = fig.subplots(2, 1)
    top.scatter(x[:, 0], y[:, 0], s=12, color="gray")
    for k, s in enumerate((0, 20, 100, 2000)):
        top.plot(grid[:, 0], runs["tanh"][1][s], color=colors(0.85 * k / 3),
                 label=step_w.format(s))
    top.plot(grid[:, 0], runs["none"][1][2000], "k--", label=no_tanh)
    top.set_xlabel("x")
    top.set_ylabel("y")
    top.set_ylim(-1.3, 2.0)  # room for the legend above the data
    bottom.semilogy(runs["tanh"][0], label=with_w)
    bottom.semilogy(runs["none"][0], label=without_w)
    bottom.axhline(best, color="gray", linestyle=":", label=line_w)
    bottom.set_xlabel(steps_w)
    bottom.set_ylabel(loss_w)
    top.legend(fontsize=9, ncol=2, loc="upper center")
    bottom.legend(fontsize=9)
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
