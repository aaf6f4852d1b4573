import numpy as np

x = np.array([[1.0, 2.0, 3.0], [10.0, 20.0, 30.0], [100.0, 200.0, 300.0]])  # 3 rows to centre
m = x.mean(axis=1)  # (3,): one mean per row
wrong = x - m  # (3, 3) - (3,): m is laid along the last dim, one mean per column
right = x - x.mean(axis=1, keepdims=True)  # (3, 3) - (3, 1): one mean per row
print("row means:", m.tolist())
print("x - m, row means after:", wrong.mean(axis=1).tolist())
print("x - m (keepdims), after:", right.mean(axis=1).tolist())
try:
    np.ones((3, 4)) - np.ones((3, 4)).mean(axis=1)  # (3, 4) - (3,)
except ValueError as e:
    print("(3, 4) - (3,): ValueError:", str(e).rstrip())
