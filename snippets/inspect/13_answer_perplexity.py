import numpy as np

from minigpt_course.checks.inspect import check_perplexity


def my_perplexity(logits, targets):
    z = logits - logits.max(axis=-1, keepdims=True)  # (N, T, V), the max-subtraction trick
    log_probs = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))  # (N, T, V) log_softmax
    nll = -np.take_along_axis(log_probs, targets[..., None], axis=-1)  # (N, T, 1) -log p(target)
    return float(np.exp(nll.mean()))  # one mean over every token, then exp


def mean_of_windows(logits, targets):
    nll = -np.take_along_axis(logits - np.log(np.exp(logits).sum(-1, keepdims=True)), targets[..., None], -1)
    return float(np.exp(nll[..., 0].mean(axis=1)).mean())  # (N,) one perplexity per window, averaged


print(check_perplexity(my_perplexity))
print(check_perplexity(mean_of_windows))
