from minigpt_course.checks.autograd import check_topological_order
from tensor import Tensor


def topological_order(loss):
    order = []
    # order[i] after every p in order[i]._prev
    return order


print(check_topological_order(topological_order, Tensor))
