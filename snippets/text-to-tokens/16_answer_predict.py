from minigpt import poetry
from minigpt.data import poem_corpus

corpus = poem_corpus()
tok = corpus.tokenizer
longest = {}
for stream in (corpus.train, corpus.val):
    text = tok.decode(stream)
    for example in text.split("<eos>")[:-1]:
        form = example.removeprefix("<bos>").split("<sep>")[0]
        n = len(tok.encode(example.replace("<bos>", "").replace("<sep>", ""))) + 4  # + 4 special tokens
        longest[form] = max(longest.get(form, 0), n)
for form, (n_lines, n_chars) in poetry.FORMS.items():
    predicted = 1 + len(form) + 1 + (3 * 2 + 2) + 1 + n_lines * (n_chars + 1) + 1
    print(f"{form}: predicted at most {predicted}, longest in the corpus {longest[form]}: {predicted == longest[form]}")
