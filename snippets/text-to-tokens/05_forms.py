from minigpt import poetry
from minigpt.data import clean_stats, load_poems

poems = {(p.author, p.title): p for p in load_poems()}
for key in (("李白", "静夜思"), ("杜甫", "登高"), ("王翰", "凉州词二首 一"), ("李白", "将进酒")):
    p = poems[key]
    shape = "+".join(str(len(line) - 1) for line in p.lines)
    shape = shape if len(shape) < 20 else shape[:17] + "..."
    print(f"{p.author}《{p.title}》 {len(p.lines)} lines, {shape} -> {poetry.classify(p.text)}")

stats = clean_stats()
four = sum(n for form, n in stats.forms.items() if form != "None")
print(f"of {stats.kept:,} kept poems, {four:,} ({four / stats.kept:.1%}) have one of the four forms:")
for form, n in sorted(stats.forms.items(), key=lambda kv: -kv[1]):
    if form != "None":
        print(f"  {form}: {n / four:.1%}")
