from minigpt_course.checks.scale_out import check_average_gradients


def my_average_gradients(params, all_reduce, world_size):
    # all_reduce(t): t becomes the sum of every rank's t, in place; returns None
    pass


print(check_average_gradients(my_average_gradients))
