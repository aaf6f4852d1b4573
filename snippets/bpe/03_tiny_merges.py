from minigpt.bpe import merge, pair_counts, train

text = "aaabdaaabac"
merges = train(text, vocab_size=259, pattern=None)  # 256 bytes + 3 merges


def show(ids):
    return " ".join(chr(i) if i < 256 else f"<{i}>" for i in ids)


ids = list(text.encode("utf-8"))  # 11 bytes, one id each
print(f"start: {show(ids)}")
for pair, new_id in merges.items():
    count = pair_counts(ids)[pair]
    ids = merge(ids, pair, new_id)
    print(f"merge {show(pair)} ({count} times) -> <{new_id}>: {show(ids)}")
print(f"{len(text)} bytes -> {len(ids)} tokens, vocabulary 256 + {len(merges)} = {256 + len(merges)}")
