import math

from poems_cpu import RECORD, train_log

print((RECORD / "train.txt").read_text(encoding="utf-8").splitlines()[0])
print(f"{'step':>5}{'validation loss':>17}{'perplexity':>12}")
for step, loss in train_log():  # 20 batches of the validation split every 500 steps
    print(f"{step:>5}{loss:>17.4f}{math.exp(loss):>12,.1f}")
