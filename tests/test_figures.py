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


def test_a_copy_of_a_script_never_draws_over_the_pages_figures(tmp_path, monkeypatch, capsys):
    """A reader's copy (my_peek.py, in the lesson's folder or the repository's root) draws into a temporary
    folder and prints where, so the tracked figures under docs/ stay as they are."""
    monkeypatch.delenv("MINIGPT_DOCS", raising=False)
    monkeypatch.setattr(figures.tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    repo = tmp_path / "repo"
    monkeypatch.chdir(repo.parent)
    for copy in (repo / "snippets" / "lesson" / "my_draw.py", repo / "my_draw.py"):
        monkeypatch.setattr(figures.sys.modules["__main__"], "__file__", str(copy), raising=False)
        assert figures.docs_dir() == tmp_path / "tmp" / "minigpt-figures"
    for _, fig in figures.bilingual("demo.png", size=(1.0, 1.0), dpi=20):
        fig.subplots()
    assert (tmp_path / "tmp" / "minigpt-figures" / "en" / "assets" / "figures" / "demo.png").is_file()
    assert not (repo / "docs").exists()
    assert capsys.readouterr().out.splitlines()[-1] == f"saved {tmp_path}/tmp/minigpt-figures/en/assets/figures/demo.png"


def test_steps_draws_one_png_per_step_and_language_and_prints_one_line_per_language(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MINIGPT_DOCS", str(tmp_path))
    seen = []
    for step, lang, fig in figures.steps("demo", 3, size=(1.0, 1.0), dpi=20):
        figures.box(figures.canvas(fig, 2, 1), 0, 0, str(step))
        seen.append((step, lang))
    assert seen == [(s, lang) for s in (1, 2, 3) for lang in ("zh", "en")]
    for folder in ("assets/figures", "en/assets/figures"):
        assert sorted(p.name for p in (tmp_path / folder).iterdir()) == ["demo-1.png", "demo-2.png", "demo-3.png"]
    assert capsys.readouterr().out == ("saved docs/assets/figures/demo-{1..3}.png\n"
                                       "saved docs/en/assets/figures/demo-{1..3}.png\n")
