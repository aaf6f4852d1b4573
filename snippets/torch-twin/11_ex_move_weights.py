from minigpt_course.checks.torch_twin import check_move_weights


def my_move_weights(numpy_gpt, torch_gpt):
    # for each (name, p) of numpy_gpt.named_parameters(): torch_gpt's parameter `name` <- p.data (float32)
    pass


print(check_move_weights(my_move_weights))
