from minigpt.checks.block import check_block_forward


def my_block_forward(block, x):
    # x: (B, T, C); block.ln_1, block.attn, block.ln_2, block.mlp: (B, T, C) -> (B, T, C)
    return block.mlp(block.ln_2(block.attn(block.ln_1(x))))


print(check_block_forward(my_block_forward))
