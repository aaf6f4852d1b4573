from minigpt_course.checks.gpt2 import check_from_hf


def my_from_hf(name, tensor):
    name = name.removeprefix("transformer.")
    if not name.startswith("h."):
        return {name: tensor}  # wte, wpe, ln_f
    _, layer, rest = name.split(".", 2)
    ours = f"blocks.{layer}."
    if rest in ("attn.bias", "attn.masked_bias"):
        return {}  # the causal mask: not a weight
    if rest.startswith("attn.c_attn."):
        kind = rest.rsplit(".", 1)[1]
        parts = (tensor.t() if kind == "weight" else tensor).chunk(3, dim=0)  # (3C, C) or (3C,): q | k | v
        return {f"{ours}attn.c_{x}.{kind}": t for x, t in zip("qkv", parts)}
    if rest in ("attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight"):
        return {ours + rest: tensor.t()}  # Conv1D (in, out) -> nn.Linear (out, in)
    return {ours + rest: tensor}


def no_transpose(name, tensor):
    out = my_from_hf(name, tensor)
    return {k: tensor if "c_proj.weight" in k or "c_fc.weight" in k else v for k, v in out.items()}


print(check_from_hf(my_from_hf))
print(check_from_hf(no_transpose))
