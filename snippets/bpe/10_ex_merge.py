from minigpt_course.checks.bpe import check_merge


def my_merge(ids, pair, new_id):
    # a new list: ids with every occurrence of pair, read left to right, replaced by new_id
    out = []
    return out


print(check_merge(my_merge))
