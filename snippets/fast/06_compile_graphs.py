import numpy as np
import torch

from minigpt.gpt_torch import GPT
from minigpt.presets import get_preset

torch.set_num_threads(1)
model = GPT(get_preset("poems-cpu").gpt_config(6831), seed=0)
rng = np.random.default_rng(0)
x, y = torch.from_numpy(rng.integers(0, 6831, size=(2, 256))), torch.from_numpy(rng.integers(0, 6831, size=(2, 256)))
explanation = torch._dynamo.explain(model)(x, y)  # what torch.compile would capture, without compiling
print(f"graphs: {explanation.graph_count}, graph breaks: {explanation.graph_break_count}")
for reason in explanation.break_reasons:
    path, line, function, _ = reason.user_stack[-1]  # the innermost frame: where tracing stopped
    print(f"break at {path.split('src/')[-1]}:{line} ({function}): {reason.reason.splitlines()[0]}")
print(f"nodes per graph: {', '.join(str(len(g.graph.nodes)) for g in explanation.graphs)}")
