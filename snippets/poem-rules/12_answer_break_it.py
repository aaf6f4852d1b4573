import numpy as np
from recorder import prompt

from minigpt.constrain import PoemConstraint
from minigpt.data import load_poems
from minigpt.generate import decode_rows
from minigpt.poetry import check_poem, check_repeats
from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()


class NoLineEnd(PoemConstraint):  # bug (a): any character where the punctuation goes
    def options(self, row):
        i, j = divmod(row.n, self.L + 1)
        if j == self.L and i < self.n_lines and not row.done:
            return self.han, {}
        return super().options(row)


bugs = {"no bug": lambda: PoemConstraint(tok, "五言律诗", "月,江"),
        "(a) no line-end mask": lambda: NoLineEnd(tok, "五言律诗", "月,江"),
        "(b) no_repeat=False": lambda: PoemConstraint(tok, "五言律诗", "月,江", no_repeat=False)}
x = prompt(tok, "五言律诗")
for name, make in bugs.items():
    passed, repeated, chars = 0, 0, 0
    for seed in range(10):
        out = model.generate(x, 96 - x.shape[1], temperature=0.8, stop=tok.eos_id,
                             rng=np.random.default_rng(seed), constraint=make())
        poem = decode_rows(tok, out[:, x.shape[1]:].tolist())[0]
        c, r = check_poem(poem, "五言律诗", "月,江"), check_repeats(poem)
        passed += c.form.ok and c.rhyme.ok and c.tones.ok and c.keywords.ok
        repeated, chars = repeated + r.repeated, chars + r.chars
    print(f"{name:22}: {passed} of 10 pass form, rhyme, tones, keywords; repeats {repeated / chars:.1%}")
real = [check_repeats(p.text) for p in load_poems() if p.form == "五言律诗"][:2000]
print(f"{'real 五言律诗 (first 2,000)':22}: repeats {sum(r.repeated for r in real) / sum(r.chars for r in real):.1%}")
