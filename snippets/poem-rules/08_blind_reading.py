from pathlib import Path

from minigpt.evaluate import blind_reading_table

readings = Path(__file__).resolve().parents[2] / "benchmarks" / "readings"

# Two readings of 40 shuffled poems each (20 generated, 20 unseen real ones), by readers not told which is which.
# Before: one --strict draw at temperature 0.8, repeats allowed. After: --strict's defaults (0.6, best of 8).
# Large: the same defaults from the poems-large preset (6 layers, 384 wide), trained on a GPU; best32: the
# most likely of 32 instead of 8. Muon: the defaults again, from poems-cpu trained with Muon (lesson 14).
# Idiom: that model, with the idiom rules --strict now adds (叠字 as the Tang poems write them, one season);
# idiom-cool: the same at temperature 0.3. 2026-12-06: the defaults, from the course's one poems-cpu checkpoint
# (benchmarks/records/2026-12-06-poems-cpu/), the model lesson 18 inspects.
for name in ("2026-12-04-before", "2026-12-04-after", "2026-12-04-large", "2026-12-04-large-best32",
             "2026-12-04-muon", "2026-12-04-idiom", "2026-12-04-idiom-cool", "2026-12-06"):
    print(name)
    print("\n".join(blind_reading_table(readings / name)))
