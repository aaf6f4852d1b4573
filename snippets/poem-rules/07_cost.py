from minigpt.constrain import KEYWORD_BOOST
from minigpt.data import poem_corpus
from minigpt.evaluate import FREE, sample_prompts, write_poems  # what minigpt bench poems measures
from minigpt.tiny_models import tiny_poet

model, tok, _ = tiny_poet()
prompts, _ = sample_prompts(poem_corpus(), 16)  # 4 validation poems of each form: their keywords
result = write_poems(model, tok, prompts, (FREE, KEYWORD_BOOST), temperature=0.8)  # sample i: seed i
print(f"{len(prompts)} samples at temperature 0.8, tiny poem model")
print(f"{'':9}{'form':>6}{'rhyme':>7}{'tone share':>12}{'keywords':>10}{'repeats':>9}{'NLL/token':>11}")
for name, mode in (("free", FREE), ("--strict", KEYWORD_BOOST)):
    m = result[mode]["all"]
    tones = "-" if m["form"] == 0 else f"{m['tone_share']:.3f}"  # a share of the poems with the form
    print(f"{name:9}{m['form']:>6.0%}{m['rhyme']:>7.0%}{tones:>12}{m['keywords']:>10.0%}"
          f"{m['repeat_share']:>9.1%}{m['nll']:>11.3f}")
for name, mode in (("--strict", KEYWORD_BOOST), ("free", FREE)):  # the free poems are the control: False
    m = result[mode]["all"]
    every = m["form"] == m["rhyme"] == m["keywords"] == 1 and m["tone_share"] == 1
    print(f"{name:9}: every poem passes form, rhyme, tones and keywords: {every}")
cost = result[KEYWORD_BOOST]["all"]["nll"] - result[FREE]["all"]["nll"]
print(f"the rules cost {cost:.3f} nats per token of the model's own fluency")
