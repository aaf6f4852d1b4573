from strided import Strided, flat_offset

x = Strided.arange(2, 3, 4)  # (B, T, C) = (2, 3, 4)
print(x)
print("buffer:", x.buffer)
i, j, k = 1, 2, 3
print(f"x[{i}, {j}, {k}] = buffer[{x.offset} + {i}*{x.strides[0]} + {j}*{x.strides[1]} + {k}*{x.strides[2]}]"
      f" = buffer[{flat_offset((i, j, k), x.strides, x.offset)}] = {x[i, j, k]}")
print("x[1] as lists:", x.tolist()[1])
