from minigpt_course.checks.block import check_block_forward


def my_block_forward(block, x):
    x = x + block.attn(block.ln_1(x))  # (B, T, C)
    return x + block.mlp(block.ln_2(x))  # (B, T, C)


def post_norm(block, x):
    x = block.ln_1(x + block.attn(x))  # (B, T, C)
    return block.ln_2(x + block.mlp(x))  # (B, T, C)


print(check_block_forward(my_block_forward))
print(check_block_forward(post_norm))
