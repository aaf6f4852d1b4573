"""Lesson 17's tools around lesson 16's small poem model (``minigpt.tiny_models.tiny_poet``): a recorder of what the rules
did at each step, and one poem written under them. The prompt is lesson 16's (``snippets/sampling/poet.py``)."""

import numpy as np

from minigpt.constrain import PoemConstraint
from minigpt.generate import decode_rows
from minigpt_course.lessons import lesson_module

prompt = lesson_module("sampling", "poet").prompt  # lesson 16's <bos> form <sep> keywords <sep>


class Recorder:
    """Wraps a ``PoemConstraint``: at every step keeps the model's logits, the masked logits and the row's
    state (characters written, open tone patterns, rhyme groups, keywords offered) as the rule left it."""

    def __init__(self, rule):
        self.rule, self.steps = rule, []

    def __call__(self, idx, logits):
        out = self.rule(idx, logits)  # (B, V) with -inf where a rule says no
        row = self.rule.rows[0]
        self.steps.append(dict(logits=logits[0].astype("float64"), masked=out[0], n=row.n,
                               patterns=row.patterns, rhyme=row.rhyme, used=set(row.used), last=row.last,
                               double=row.double, starts=dict(row.starts), missing=row.missing))
        return out


def write_strict(model, tok, form="五言绝句", keywords="月,江", seed=0, **rule_args):
    """One poem written under ``PoemConstraint`` at temperature 0.8: (its text, the Recorder's steps, the rule)."""
    x = prompt(tok, form, keywords)
    rec = Recorder(PoemConstraint(tok, form, keywords, **rule_args))
    out = model.generate(x, 96 - x.shape[1], temperature=0.8, stop=tok.eos_id,
                         rng=np.random.default_rng(seed), constraint=rec)
    steps = rec.steps
    for step, t in zip(steps, out[0, x.shape[1]:].tolist()):
        step["picked"] = t
    return decode_rows(tok, out[:, x.shape[1]:].tolist())[0], steps, rec.rule
