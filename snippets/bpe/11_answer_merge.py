from minigpt_course.checks.bpe import check_merge


def my_merge(ids, pair, new_id):
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2  # both ids of the pair are used
        else:
            out.append(ids[i])
            i += 1
    return out


def keeps_second(ids, pair, new_id):
    out = []
    for i in range(len(ids)):
        out.append(new_id if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair else ids[i])
    return out


print(check_merge(my_merge))
print(check_merge(keeps_second))
