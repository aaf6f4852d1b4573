import math

from minigpt_course.checks.loop import check_lr_at


def my_lr_at(step, config):
    decay = config.lr_decay_steps or config.max_steps
    if step < config.warmup_steps:
        return config.lr * (step + 1) / (config.warmup_steps + 1)  # never 0
    if step >= decay:
        return config.min_lr
    progress = (step - config.warmup_steps) / (decay - config.warmup_steps)  # 0 -> 1
    return config.min_lr + 0.5 * (1 + math.cos(math.pi * progress)) * (config.lr - config.min_lr)


def warmup_from_zero(step, config):
    if step < config.warmup_steps:
        return config.lr * step / config.warmup_steps  # step 0: lr 0
    return my_lr_at(step, config)


print(check_lr_at(my_lr_at))
print(check_lr_at(warmup_from_zero))
