"""minigpt_course.figures: one drawing, saved in both languages' folders under MINIGPT_DOCS."""

from minigpt_course import figures


def test_bilingual_saves_both_languages_and_prints_the_page_lines(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MINIGPT_DOCS", str(tmp_path))
    labels = {"zh": "步数", "en": "step"}
    seen = []
    for lang, fig in figures.bilingual("demo.png", size=(2.0, 1.5), dpi=50, font_size=9):
        ax = fig.subplots()
        ax.plot([0, 1], [1, 0])
        ax.set_xlabel(labels[lang])
        seen.append((lang, tuple(fig.get_size_inches()), fig.dpi))
    assert seen == [("zh", (2.0, 1.5), 50), ("en", (2.0, 1.5), 50)]
    for folder in ("assets/figures", "en/assets/figures"):
        png = (tmp_path / folder / "demo.png").read_bytes()
        assert png.startswith(b"\x89PNG") and b"Software" not in png  # no matplotlib version: same bytes each run
    assert capsys.readouterr().out == ("saved docs/assets/figures/demo.png\n"
                                       "saved docs/en/assets/figures/demo.png\n")


def test_docs_defaults_to_the_repository_of_the_running_script(tmp_path, monkeypatch):
    monkeypatch.delenv("MINIGPT_DOCS", raising=False)
    script = tmp_path / "repo" / "snippets" / "lesson" / "01_draw.py"
    script.parent.mkdir(parents=True)
    script.touch()
    monkeypatch.setattr(figures.sys.modules["__main__"], "__file__", str(script), raising=False)
    assert figures.docs_dir() == tmp_path / "repo" / "docs"
    monkeypatch.setattr(figures.sys.modules["__main__"], "__file__", str(tmp_path / "elsewhere.py"))
    monkeypatch.chdir(tmp_path)
    assert figures.docs_dir() == tmp_path / "docs"
