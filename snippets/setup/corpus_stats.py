from minigpt.data import clean_stats, poem_corpus, shakespeare_corpus

stats = clean_stats()
print(f"poems in the source files: {stats.total:,}")
for reason, n in sorted(stats.dropped.items(), key=lambda kv: -kv[1]):
    print(f"  dropped, {reason}: {n:,}")
print(f"kept: {stats.kept:,} (notes cut out of {stats.notes_stripped:,})")
for form, n in sorted(stats.forms.items(), key=lambda kv: -kv[1]):
    print(f"  {form if form != 'None' else 'other shapes'}: {n:,}")

for corpus in (poem_corpus(), shakespeare_corpus()):
    print(f"{corpus.name}: vocab {corpus.tokenizer.vocab_size:,}, "
          f"train {len(corpus.train):,} tokens, val {len(corpus.val):,} tokens")
