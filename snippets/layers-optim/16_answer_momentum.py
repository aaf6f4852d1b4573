import numpy as np

from optim import SGD

from minigpt_course.checks.layers_optim import check_sgd_momentum


class SGDMomentum(SGD):
    """buf <- momentum * buf + grad (buf = grad at the first step); p <- p - lr * buf."""

    def __init__(self, params, lr, momentum=0.9):
        super().__init__(params, lr)
        self.momentum = momentum
        self.bufs = [None] * len(self.params)  # one velocity per parameter, p.shape each

    def step(self):
        for i, p in enumerate(self.params):
            if p.grad is None:
                continue
            if self.bufs[i] is None:
                self.bufs[i] = np.array(p.grad, copy=True)  # buf_1 = g_1
            else:
                self.bufs[i] = self.momentum * self.bufs[i] + p.grad  # buf_t = mu * buf_{t-1} + g_t
            p.data -= self.lr * self.bufs[i]


print(check_sgd_momentum(SGDMomentum))
