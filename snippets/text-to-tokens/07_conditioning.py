from collections import Counter

import numpy as np

from minigpt.data import KEYWORD_SEP, format_prompt, poem_corpus

corpus = poem_corpus()
tok, stream = corpus.tokenizer, corpus.train
starts = np.flatnonzero(stream == tok.bos_id)  # (poems,)
examples = np.split(stream, starts[1:])  # poems x (length,)
print(tok.decode(examples[0]))

same, n_keywords, prefix_tokens = 0, Counter(), 0
for ids in examples:
    form, keywords, _ = tok.decode(ids).removeprefix("<bos>").split("<sep>")
    prompt = format_prompt(tok, form, keywords.split(KEYWORD_SEP))
    same += prompt == ids[:len(prompt)].tolist()
    n_keywords[len(keywords.split(KEYWORD_SEP))] += 1
    prefix_tokens += len(prompt)
print(f"format_prompt rebuilds the prefix of {same:,} of {len(examples):,} training poems")
print("poems with 1, 2, 3 keywords:", ", ".join(f"{n_keywords[k]:,}" for k in (1, 2, 3)))
print(f"prefix tokens: {prefix_tokens:,} of {len(stream):,} ({prefix_tokens / len(stream):.1%})")
print("format_prompt(tok, '五绝', '明月') ->", tok.decode(format_prompt(tok, "五绝", "明月")))
