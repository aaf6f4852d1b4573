"""The check of lesson 19's exercise passes the library's cached_keys_values and names the usual mistakes."""

import numpy as np

import minigpt.gpt
from minigpt_course.checks.kv_cache import check_cached_keys_values
from minigpt.gpt import cached_keys_values
from minigpt.tensor import Tensor


def test_the_library_passes():
    report = str(check_cached_keys_values(cached_keys_values))
    assert report.startswith("cached_keys_values: passed"), report


def test_the_library_is_put_back_after_the_check():
    def only_new(kv_cache, k, v, start):
        return k, v
    str(check_cached_keys_values(only_new))
    assert minigpt.gpt.cached_keys_values is cached_keys_values


def test_returning_only_the_new_tokens_is_named():
    def only_new(kv_cache, k, v, start):
        cached_keys_values(kv_cache, k, v, start)
        return k, v
    report = str(check_cached_keys_values(only_new))
    assert "not yet" in report and "(2, 2, 4, 3), got (2, 2, 1, 3)" in report and "only this call's new" in report


def test_returning_the_whole_buffer_is_named():
    def whole(kv_cache, k, v, start):
        cached_keys_values(kv_cache, k, v, start)
        return Tensor(kv_cache[0]), Tensor(kv_cache[1])
    assert "slots not yet written" in str(check_cached_keys_values(whole))


def test_writing_at_position_zero_is_named():
    def at_zero(kv_cache, k, v, start):
        return cached_keys_values(kv_cache, k, v, 0)[0], cached_keys_values(kv_cache, k, v, 0)[1]
    def at_zero_sliced(kv_cache, k, v, start):
        cached_keys_values(kv_cache, k, v, 0)
        end = start + k.shape[2]
        return Tensor(kv_cache[0][:, :, :end]), Tensor(kv_cache[1][:, :, :end])
    assert "not yet" in str(check_cached_keys_values(at_zero))
    report = str(check_cached_keys_values(at_zero_sliced))
    assert "expected the key of position 0, got the key of position 3" in report and "in place" in report


def test_keys_and_values_swapped_are_named():
    def swapped(kv_cache, k, v, start):
        k_all, v_all = cached_keys_values(kv_cache, k, v, start)
        return v_all, k_all
    assert "expected the key of position 0, got the value of position 0" in str(check_cached_keys_values(swapped))


def test_arrays_instead_of_tensors_are_named():
    def arrays(kv_cache, k, v, start):
        k_all, v_all = cached_keys_values(kv_cache, k, v, start)
        return k_all.data, v_all.data
    assert "expected a tuple of two Tensors" in str(check_cached_keys_values(arrays))


def test_a_copy_that_is_never_written_back_is_caught_at_the_next_call():
    def copies(kv_cache, k, v, start):
        k_buf, v_buf = (np.array(b) for b in kv_cache)  # writes into copies: the next call finds zeros
        return cached_keys_values((k_buf, v_buf), k, v, start)
    report = str(check_cached_keys_values(copies))
    assert "expected the key of position 0, got zeros" in report and "in place" in report


def test_a_wrong_result_inside_the_gpt_is_reported():
    calls = []

    def wrong_inside(kv_cache, k, v, start):  # right on the check's own calls, wrong inside the GPT
        calls.append(start)
        if len(calls) > 3:
            return cached_keys_values(kv_cache, k * 0.5, v, start)
        return cached_keys_values(kv_cache, k, v, start)
    report = str(check_cached_keys_values(wrong_inside))
    assert "inside the GPT" in report and "differ from the forward pass without a cache" in report
