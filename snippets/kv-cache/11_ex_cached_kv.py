from minigpt_course.checks.kv_cache import check_cached_keys_values
from minigpt.tensor import Tensor


def my_cached_keys_values(kv_cache, k, v, start):
    # kv_cache = (k_buf, v_buf), numpy arrays (B, nh, block_size, hs)
    # k, v: Tensors (B, nh, T, hs), the new tokens at positions start .. start+T-1
    # return: Tensors (B, nh, start+T, hs), every stored position
    k_buf, v_buf = kv_cache
    return k, v


print(check_cached_keys_values(my_cached_keys_values))
