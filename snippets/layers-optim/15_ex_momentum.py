from optim import SGD

from minigpt_course.checks.layers_optim import check_sgd_momentum


class SGDMomentum(SGD):
    """buf <- momentum * buf + grad (buf = grad at the first step); p <- p - lr * buf."""

    def __init__(self, params, lr, momentum=0.9):
        super().__init__(params, lr)
        self.momentum = momentum

    def step(self):
        for p in self.params:
            if p.grad is not None:
                p.data -= self.lr * p.grad  # p <- p - lr * grad: no buf yet


print(check_sgd_momentum(SGDMomentum))
