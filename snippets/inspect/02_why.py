import math

from poems_cpu import bench_record

from minigpt import poetry
from minigpt.data import load_poems

record = bench_record()  # minigpt bench poems --samples 200 on poems-cpu: 50 prompts of each form
free, real = record["rows"]["free"], record["rows"]["real poems"]
base = poetry.baseline(load_poems()).values()  # every real poem of the corpus, checked now
now = {k: sum(getattr(b, k) for b in base) / 4 for k in ("rhyme_ok", "tone_share", "rhyme_chance", "tone_chance")}
loss = record["val_loss"]
print(f"poems-cpu: validation loss {loss} nats per character, perplexity {math.exp(loss):.1f}")
print(f"{'':12}{'free poems-cpu':>16}{'real poems':>12}{'chance':>9}")
print(f"{'form':12}{free['form']:>15.1f}%{real['form']:>11.1f}%{'-':>9}")
print(f"{'tone share':12}{free['tone']:>16.3f}{real['tone']:>12.3f}{now['tone_chance']:>9.3f}")
print(f"{'rhyme':12}{free['rhyme']:>15.1f}%{real['rhyme']:>11.1f}%{now['rhyme_chance']:>8.1%}")
same = round(100 * now["rhyme_ok"], 1) == real["rhyme"] and round(now["tone_share"], 3) == real["tone"]
print(f"the record's real poems, recomputed now: the same: {same}")
