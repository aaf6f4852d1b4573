import numpy as np

from tensor import Tensor

np.set_printoptions(precision=4, suppress=True)
x = Tensor([0.0, -800.0])
with np.errstate(divide="ignore"):
    print("x            ", x.data)
    print("softmax      ", x.softmax(-1).data)
    print("log(softmax) ", np.log(x.softmax(-1).data))
    print("log_softmax  ", x.log_softmax(-1).data)

print("logsumexp is a soft max:")
for row in ([1.0, 2.0, 3.0], [10.0, 20.0, 30.0], [3.0, 3.0, 3.0]):
    x = Tensor(row)
    lse = (x.data - x.log_softmax(-1).data)[0]  # x_i - log_softmax(x)_i = logsumexp(x), for any i
    print(f"  x = {str(row):<18} max {max(row):5.1f}   logsumexp {lse:9.4f}   minus max {lse - max(row):.4f}")
print(f"ln 3 = {np.log(3):.4f}")
