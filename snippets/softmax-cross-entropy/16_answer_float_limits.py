import numpy as np

with np.errstate(over="ignore", under="ignore"):
    for dtype, low in ((np.float64, -745), (np.float32, -103)):
        top = np.log(np.finfo(dtype).max)  # exp(x) is inf above ln(largest float)
        high = int(top)
        print(f"{dtype.__name__}: ln(largest float) = {top:.4f}")
        print(f"  exp({high}) = {np.exp(dtype(high)):.4e}   exp({high + 1}) = {np.exp(dtype(high + 1))}")
        print(f"  exp({low}) = {np.exp(dtype(low)):.4e}   exp({low - 1}) = {np.exp(dtype(low - 1))}")
