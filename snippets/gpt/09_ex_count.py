from minigpt.config import GPTConfig
from minigpt.gpt import GPT


def my_num_params(V, T, C, L):
    # wte (V, C), tied head; wpe (T, C); L blocks; ln_f
    return V * C + T * C


print("config (V, T, C, L)      expected   got")
for V, T, C, L in [(69, 64, 128, 4), (6831, 256, 128, 4), (6831, 32, 32, 2)]:
    expected = GPT(GPTConfig(vocab_size=V, block_size=T, n_embd=C, n_layer=L)).num_params()
    try:
        got = my_num_params(V, T, C, L)
    except Exception as e:  # the error of my_num_params, in one line
        print(f"{str((V, T, C, L)):22}{expected:>11,}  my_num_params raised {type(e).__name__}: {e}")
        continue
    verdict = "ok" if got == expected else f"off by {expected - got:,}"
    print(f"{str((V, T, C, L)):22}{expected:>11,}{got:>11,}  {verdict}")
