from collections import defaultdict

from minigpt.gpt import GPT
from minigpt.presets import get_preset

V = 6831  # the poems' vocabulary: characters + 4 special tokens


def formula(V, T, C, L):  # one line per component, as on the page
    return {"wte (tied head)": V * C, "wpe": T * C, "ln_1 + ln_2": L * 4 * C,
            "attn": L * 4 * (C * C + C), "mlp": L * (8 * C * C + 5 * C), "ln_f": 2 * C}


for preset in ("tiny", "poems-cpu"):
    p = get_preset(preset)
    model = GPT(p.gpt_config(V))
    code = defaultdict(int)
    for name, w in model.named_parameters():  # e.g. blocks.0.attn.c_q.weight
        part = name.split(".")[2] if name.startswith("blocks.") else name.split(".")[0]
        key = {"wte": "wte (tied head)", "ln_1": "ln_1 + ln_2", "ln_2": "ln_1 + ln_2"}.get(part, part)
        code[key] += w.numel()
    want = formula(V, p.block_size, p.n_embd, p.n_layer)
    print(f"{preset}: V={V} T={p.block_size} C={p.n_embd} L={p.n_layer}")
    print(f"  {'component':16}{'code':>10}{'formula':>10}")
    for key in want:
        print(f"  {key:16}{code[key]:>10,}{want[key]:>10,}")
    total = sum(want.values())
    print(f"  {'total':16}{model.num_params():>10,}{total:>10,}  same: {model.num_params() == total}")
    print(f"  an untied head would add V*C = {V * p.n_embd:,} ({V * p.n_embd / total:.1%} more)")
