import numpy as np

records = np.zeros(3, dtype=[("id", np.int8), ("score", np.float32)])  # 1 + 4 = 5 bytes per record
scores = records["score"]  # a view: every 5th byte starts a float32
print("record itemsize", records.itemsize, "bytes; scores itemsize", scores.itemsize, "bytes")
print("scores.strides:", scores.strides, "bytes =", scores.strides[0] / scores.itemsize, "float32 elements")
print("a view, not a copy:", np.shares_memory(records, scores))
