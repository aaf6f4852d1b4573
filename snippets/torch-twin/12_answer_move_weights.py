import torch

from minigpt_course.checks.torch_twin import check_move_weights


def my_move_weights(numpy_gpt, torch_gpt):
    theirs = dict(torch_gpt.named_parameters())
    with torch.no_grad():
        for name, p in numpy_gpt.named_parameters():
            theirs[name].copy_(torch.from_numpy(p.data))  # (same shape), in place


def without_no_grad(numpy_gpt, torch_gpt):
    theirs = dict(torch_gpt.named_parameters())
    for name, p in numpy_gpt.named_parameters():
        theirs[name].copy_(torch.from_numpy(p.data))


print(check_move_weights(my_move_weights))
print(check_move_weights(without_no_grad))
