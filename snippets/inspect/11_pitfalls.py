import math

import numpy as np
import torch
import torch.nn.functional as F
from poems_cpu import bench_record, head_shares, load_maps, train_log

from minigpt.attention_maps import export
from minigpt.data import poem_corpus
from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()
val = torch.from_numpy(poem_corpus().val[: 200 * 96 + 1])
x, y = val[:-1].view(200, 96), val[1:].view(200, 96)  # 200 windows of 96 tokens
with torch.no_grad():
    nll = F.cross_entropy(model(x)[0].flatten(0, 1), y.flatten(), reduction="none")  # (200 * 96,)
losses = nll.view(200, 96).mean(dim=1).double().numpy()  # (200,) each window's mean loss
loss = losses.mean()
print(f"exp(mean loss) {math.exp(loss):.1f}; mean of the windows' perplexities {np.exp(losses).mean():.1f}")
print(f"{loss:.3f} nats = {loss / math.log(2):.3f} bits: 2^bits {2 ** (loss / math.log(2)):.1f}, "
      f"e^bits {math.exp(loss / math.log(2)):,.1f}")
steps, during = train_log()[-1]
print(f"poems-cpu after {steps} steps: validation loss {during:.4f} on 20 batches during training, "
      f"{bench_record()['val_loss']} on the whole split")
_, poems = load_maps()
tokens, att = poems[3]["tokens"], poems[3]["att"]
diagonal = np.mean(head_shares(tokens, att)[1, 2][0])  # row t's weight on position t
print(f"row t read as writing tokens[t]: layer 2 head 3 looks at the character it writes: {diagonal:.2f}")
try:
    export(model, tok, {"train_config": {"corpus": "shakespeare"}}, None)
except ValueError as e:
    print(f"ValueError: {e}")
