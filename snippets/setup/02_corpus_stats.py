from minigpt.data import clean_stats, poem_corpus, shakespeare_corpus

stats = clean_stats()
print(f"poems in the source files: {stats.total:,}")
for reason, n in sorted(stats.dropped.items(), key=lambda kv: -kv[1]):
    print(f"  dropped, {reason}: {n:,}")
print(f"kept: {stats.kept:,} (notes cut out of {stats.notes_stripped:,})")
for form, n in sorted(stats.forms.items(), key=lambda kv: -kv[1]):
    print(f"  {form if form != 'None' else 'other shapes'}: {n:,}")

poems, shakespeare = poem_corpus(), shakespeare_corpus()
n_train, n_val = poems.info["poems_train"], poems.info["poems_val"]
print(f"poems: {n_train:,} train + {n_val:,} val poems ({n_val / (n_train + n_val):.0%} held out)")
chars, split = shakespeare.info["characters"], shakespeare.info["split_at"]
print(f"shakespeare: {chars:,} characters, the first {split / chars:.0%} for training")
for corpus in (poems, shakespeare):
    print(f"{corpus.name}: vocab {corpus.tokenizer.vocab_size:,}, "
          f"train {len(corpus.train):,} tokens, val {len(corpus.val):,} tokens")
