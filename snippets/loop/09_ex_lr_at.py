import math  # noqa: F401  (math.cos, math.pi)

from minigpt_course.checks.loop import check_lr_at


def my_lr_at(step, config):
    # config.lr, config.min_lr, config.warmup_steps, config.max_steps, config.lr_decay_steps (None: max_steps)
    return config.lr


print(check_lr_at(my_lr_at))
