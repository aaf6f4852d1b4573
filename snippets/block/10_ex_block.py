from minigpt_course.checks.block import check_block_forward


def my_block_forward(block, x):
    # x: (B, T, C); ln_1, attn, ln_2, mlp: (B, T, C) -> (B, T, C)
    return block.mlp(block.ln_2(block.attn(block.ln_1(x))))


print(check_block_forward(my_block_forward))
