import itertools

import numpy as np
import torch

from strided import Strided


def offset(view, base):  # elements from base's first element to view's, as numpy sees it
    return (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // base.itemsize


ok = {"strides": True, "values": True, "is_contiguous": True, "select offsets": True}
control, views = True, 0
for shape in [(5,), (3, 1, 2), (2, 3, 4), (2, 3, 2, 4)]:
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    for dims in itertools.permutations(range(len(shape))):  # every order of the dims
        y, p, q = Strided.arange(*shape).permute(*dims), a.transpose(dims), torch.from_numpy(a).permute(dims)
        views += 1
        ok["strides"] &= y.strides == tuple(s // p.itemsize for s in p.strides) == q.stride()
        ok["values"] &= y.tolist() == p.tolist() == q.tolist()
        ok["is_contiguous"] &= y.is_contiguous() == p.flags.c_contiguous == q.is_contiguous()
        for d in range(len(shape)):
            i = y.shape[d] - 1  # the last position along dim d
            ok["select offsets"] &= (y.select(d, i).offset == offset(p[(slice(None),) * d + (i, ...)], a)
                                     == q.select(d, i).storage_offset())
        control &= y.strides == p.strides  # numpy's .strides count bytes
print(views, "views: 4 shapes, every order of their dims")
for name, same in ok.items():
    print(f"{name:14} ours == numpy == torch: {same}")
print(f"control: ours == numpy's .strides (bytes, not divided): {control}")
