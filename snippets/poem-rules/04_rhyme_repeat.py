import numpy as np
from recorder import write_strict

from minigpt.constrain import Row
from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()
text, steps, rule = write_strict(model, tok, "五言绝句", "月,江", seed=0)
print(f"poem: {text}")
for k in (4, 10, 22):  # the last character of lines 1, 2 and 4
    s, after = steps[k], steps[k + 1]
    allowed = np.flatnonzero(np.isfinite(s["masked"]))  # token ids the rules allow here
    free = int(np.argmax(s["logits"]))  # the model's own first choice
    groups = "/".join(sorted(after["rhyme"] or [])) or "-"
    print(f"line {s['n'] // 6 + 1} end: {len(allowed):,} allowed; the model alone: {tok.itos[free]} "
          f"({'allowed' if np.isfinite(s['masked'][free]) else 'masked'}); written {tok.itos[s['picked']]}; "
          f"rhyme groups kept: {groups}")
last = steps[22]
in_group = rule._rhyme_mask(steps[23]["rhyme"])
print(f"line 4's allowed ends all in that group: {bool(in_group[np.isfinite(last['masked'])].all())}, "
      f"none written before: {not any(tok.itos[t] in last['used'] for t in np.flatnonzero(np.isfinite(last['masked'])))}")
for k, s in enumerate(steps):  # the first step whose favourite is a character already in the poem
    top = int(np.argmax(s["logits"]))
    if tok.itos[top] in s["used"] and not np.isfinite(s["masked"][top]):
        print(f"step {k}: the model's favourite {tok.itos[top]} is already in the poem: "
              f"logit {s['logits'][top]:.2f} -> {s['masked'][top]}")
        break
stoi = tok.stoi["长"]
for line, double in (("有长", False), ("有长长", True)):  # 叠字: a second 长 straight after, never a third
    row = Row(start=0, n=len(line), line=line, used=set(line), last="长", double=double)
    print(f"after {line}: 长 allowed: {bool(rule._no_repeat(row, rule.han)[stoi])}")
