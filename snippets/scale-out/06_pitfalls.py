import numpy as np
import torch
import torch.distributed as dist

from minigpt.data import shakespeare_corpus

try:  # a collective in a process that never joined a group (plain `python`, not torchrun)
    dist.all_reduce(torch.ones(1))
except (RuntimeError, ValueError) as e:
    print(f"{type(e).__name__}: {str(e).splitlines()[0]}")

corpus = shakespeare_corpus()
same = [corpus.get_batch("train", 4, 32, np.random.default_rng(1337))[0] for rank in (0, 1)]  # seed, no rank
own = [corpus.get_batch("train", 4, 32, np.random.default_rng(1337 + rank))[0] for rank in (0, 1)]  # seed + rank
print("every rank seeded 1337: the two ranks' batches identical:", np.array_equal(*same))
print("rank r seeded 1337 + r: the two ranks' batches identical:", np.array_equal(*own))
