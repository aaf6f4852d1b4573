from minigpt_course.checks.kv_cache import check_cached_keys_values
from minigpt.tensor import Tensor


def my_cached_keys_values(kv_cache, k, v, start):
    k_buf, v_buf = kv_cache  # (B, nh, block_size, hs) each
    end = start + k.shape[2]
    k_buf[:, :, start:end] = k.data  # positions start .. end-1
    v_buf[:, :, start:end] = v.data
    return Tensor(k_buf[:, :, :end]), Tensor(v_buf[:, :, :end])  # (B, nh, end, hs)


def writes_at_zero(kv_cache, k, v, start):
    k_buf, v_buf = kv_cache
    T = k.shape[2]
    k_buf[:, :, :T], v_buf[:, :, :T] = k.data, v.data  # positions 0 .. T-1, whatever start is
    return Tensor(k_buf[:, :, : start + T]), Tensor(v_buf[:, :, : start + T])


print(check_cached_keys_values(my_cached_keys_values))
print(check_cached_keys_values(writes_at_zero))
