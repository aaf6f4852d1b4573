from minigpt_course.checks.block import MESSAGES, MISTAKES, check_block_forward


def right(block, x):
    x = x + block.attn(block.ln_1(x))
    return x + block.mlp(block.ln_2(x))


def test_the_pre_norm_block_passes():
    assert "passed" in str(check_block_forward(right))


def test_every_known_mistake_is_named():
    for mistake, wrong in MISTAKES.items():
        report = str(check_block_forward(wrong, "wrong"))
        assert report.startswith("wrong: not yet") and MESSAGES[mistake][0] in report


def test_a_wrong_shape_is_reported():
    assert "shape: expected" in str(check_block_forward(lambda b, x: x.data[0]))
