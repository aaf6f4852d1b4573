import numpy as np
from recorder import prompt

from minigpt.constrain import PoemConstraint
from minigpt.generate import decode_rows, describe_check
from minigpt.poetry import FORMS, format_poem
from minigpt.tiny_models import tiny_poet

model, tok, val_loss = tiny_poet()  # 2 layers, 64 wide, 400 steps on the Tang poems
print(f"tiny poem model: {sum(p.numel() for p in model.parameters()):,} parameters, "
      f"validation loss {val_loss:.2f}")
for form, strict in [("五言绝句", False)] + [(form, True) for form in FORMS]:
    x = prompt(tok, form, "月,江")  # (1, T): <bos> form <sep> 月 , 江 <sep>
    rule = PoemConstraint(tok, form, "月,江") if strict else None
    out = model.generate(x, 96 - x.shape[1], temperature=0.8, stop=tok.eos_id,
                         rng=np.random.default_rng(0), constraint=rule)
    text = decode_rows(tok, out[:, x.shape[1]:].tolist())[0]
    print(f"--- {form}, {'strict' if strict else 'free'}:")
    print(format_poem(text))
    print(f"[{describe_check(text, form, '月,江')}]")
