from minigpt_course.checks.gpt2 import check_from_hf


def my_from_hf(name, tensor):
    # {our name: tensor} for one tensor of a Hugging Face GPT-2 checkpoint: strip "transformer.", rename h.N to
    # blocks.N, transpose Conv1D weights, split c_attn into c_q, c_k, c_v, return {} for the causal mask attn.bias
    name = name.removeprefix("transformer.")
    return {name.replace("h.", "blocks.", 1): tensor}


print(check_from_hf(my_from_hf))
