import json

from minigpt.data import _clean, clean_stats, data_dir
from minigpt.manifest import poem_files

raw = [r for f in poem_files() for r in json.loads((data_dir() / f).read_bytes())]
text = lambda r: "".join(r.get("paragraphs") or [])  # noqa: E731
first = {}
for dup in raw:
    if first.setdefault(text(dup), dup) is not dup:
        break
cases = {
    "notes_stripped": next(r for r in raw if "（一作" in text(r)),
    "missing_characters": next(r for r in raw if "□" in text(r)),
    "editorial_marks": next(r for r in raw if "/" in text(r) and "{" not in text(r)),
    "empty": next(r for r in raw if not text(r)),
    "duplicate": dup,
}
stats = clean_stats()
print(f"{stats.total:,} poems in, {stats.kept:,} kept")
for rule, r in cases.items():
    poems, st = _clean([first[text(r)], r] if rule == "duplicate" else [r])
    n = stats.dropped.get(rule, stats.notes_stripped)
    line = next((p for p in r["paragraphs"] if any(c in p for c in "（□/")), text(r)[:16])
    print(f"{rule} ({n:,}): {r['author']}《{r['title']}》")
    print(f"  {line or r['paragraphs']}")
    if rule == "duplicate":
        print(f"  same text as {first[text(r)]['author']}《{first[text(r)]['title']}》")
    print("  ->", f"dropped: {', '.join(st.dropped)}" if st.dropped else "kept: " + "".join(poems[0].lines[:2]))
