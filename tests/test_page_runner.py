"""The page runner (tools/course_pages.py + conftest.py) does what it promises, on small pages written to a
temporary project with the same snippet settings as the real mkdocs.yml."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import course_pages as cp

ROOT = Path(__file__).resolve().parents[1]
MKDOCS_YML = """\
site_name: runner self-test
markdown_extensions:
  - pymdownx.snippets:
      check_paths: true
      dedent_subsections: true
      base_path:
        - !relative $config_dir
"""
F = "```"
ADD = {"snippets/demo/01_add.py": "print('2 + 2 =', 2 + 2)\n"}


def project(tmp_path: Path, page: str, files: dict[str, str] | None = None, name: str = "docs/zh/p.md"):
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    (tmp_path / "docs").mkdir(exist_ok=True)
    for rel, text in {**(files or {}), name: page}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text).replace("'''", F), encoding="utf-8")
    site = cp.Site(tmp_path)
    return site, cp.read_page(tmp_path / name, site)


def reports(site, page) -> list[str]:
    """Run every runnable block; the failure reports (empty when all pass)."""
    return [r for b in page.blocks if b.run_key and (r := cp.report(b, cp.run(b.run_key, site.root)))]


SHOWN_OUTPUT = """\
    # T {{ #t }}

    '''python
    --8<-- "snippets/demo/01_add.py"
    '''

    <!--pytest-codeblocks:expected-output-->
    '''text
    {shown}
    '''
    """


def test_a_script_block_runs_the_file_and_a_wrong_output_fails_with_a_diff(tmp_path):
    site, page = project(tmp_path, SHOWN_OUTPUT.format(shown="2 + 2 = 5"), ADD)
    [block] = [b for b in page.blocks if b.kind == "script"]
    assert block.name == "L3[snippets/demo/01_add.py]" and block.run_key == ("script", "snippets/demo/01_add.py")
    [report] = reports(site, page)
    assert "docs/zh/p.md:3 (snippets/demo/01_add.py)" in report and "python snippets/demo/01_add.py" in report
    assert "-2 + 2 = 5" in report and "+2 + 2 = 4" in report
    site, page = project(tmp_path, SHOWN_OUTPUT.format(shown="2 + 2 = 4"), ADD)
    assert page.problems == [] and reports(site, page) == []


LOSS = {"snippets/demo/01_loss.py": "print('loss 2.7480, bf16 faster: False')\n"}
VARIES_PAGE = """\
    # T {{ #t }}

    '''python
    --8<-- "snippets/demo/01_loss.py"
    '''

    <!--pytest-codeblocks:expected-output-->
    '''text
    {shown}
    '''

    <!--varies: {spec}-->
    !!! cpu "{note}"
    """


def test_a_cpu_note_lets_an_output_differ_by_what_it_states_and_no_more(tmp_path):
    """An output that depends on the CPU (bfloat16 hardware, speed) is compared within the tolerance its
    visible cpu note states; its words, its line count and everything else stay exact."""
    def check(shown, spec="numbers 0.002", note="another CPU: the loss within 0.002"):
        site, page = project(tmp_path, VARIES_PAGE.format(shown=shown, spec=spec, note=note), LOSS)
        return page.problems, reports(site, page)

    assert check("loss 2.7470, bf16 faster: False") == ([], [])  # 0.001 apart
    assert check("loss 2.7460, bf16 faster: False") == ([], [])  # 0.002: the edge
    [report] = check("loss 2.7450, bf16 faster: False")[1]
    assert "by more than its cpu note allows" in report and "line 1" in report
    assert len(check("loss 2.7480, bf16 faster: True")[1]) == 1  # a verdict is exact unless the note says so
    assert check("loss 2.7480, bf16 faster: True", "verdicts", "another CPU: its own verdict") == ([], [])
    assert len(check("loss 2.7480, bf16 quicker: False")[1]) == 1  # words are never free
    assert len(check("loss 2.7480, bf16 faster: False\nmore")[1]) == 1
    assert check("loss 2.8, bf16 faster: False", "numbers 2%", "within 2%")[1] == []
    assert len(check("loss 2.6, bf16 faster: False", "numbers 2%", "within 2%")[1]) == 1
    problems, _ = check("loss 2.7480, bf16 faster: False", note="another CPU prints other digits")
    assert problems and "must state the tolerance the test uses (0.002)" in problems[0]
    LOSS["snippets/demo/01_loss.py"] = "print('loss 2.7480 on AVX2')\n"
    assert check("loss 2.7480 on AVX512", "AVX512|AVX2", "its own kernels")[1] == []
    assert len(check("loss 2.7480 on SSE", "AVX512|AVX2", "its own kernels")[1]) == 1
    LOSS["snippets/demo/01_loss.py"] = "print('loss 2.7480, bf16 faster: False')\n"
    problems, _ = check("loss 2.7480, bf16 faster: False", spec="roughly")
    assert problems and "unknown item 'roughly'" in problems[0]


def test_poems_let_a_trained_models_text_differ_but_not_its_checks_or_the_rest(tmp_path):
    """With ``poems``, any run of Han characters stands for another, a poem's lines may be more or fewer, and a
    check report is compared by which checks pass; a percentage is a fraction under an absolute tolerance."""
    def check(printed, shown, spec="poems, numbers 0.02", note="another CPU: other poems, numbers within 0.02"):
        files = {"snippets/demo/01_loss.py": f"print({printed!r})\n"}
        site, page = project(tmp_path, VARIES_PAGE.format(shown=shown.replace("\n", "\n    "), spec=spec,
                                                          note=note), files)
        assert page.problems == []
        return reports(site, page)

    shown = "--- 五言绝句:\n江月中不蜀，水秋暮问袍。\n谁于笑即过，天思与依高。\n[五言绝句: ok; rhyme 下平声四豪; keywords 月: ok]\nrepeats 10%"
    assert check("--- 五言绝句:\n山风落日，归。\n[五言绝句: ok; rhyme 上平声一东; keywords 月: ok]\nrepeats 9%", shown) == []
    assert len(check("--- 五言绝句:\n山风落日，归。\n[五言绝句: line 1 is short; rhyme 上平声一东; keywords 月: ok]"
                     "\nrepeats 10%", shown)) == 1  # a check that passed must pass
    assert len(check("--- 五言绝句:\n山风落日，归。\n[五言绝句: ok; rhyme 上平声一东; keywords 月: ok]\nrhymes 10%",
                     shown)) == 1  # the words outside the Han text stay exact
    assert len(check("--- 五言绝句:\n山风落日，归。\n[五言绝句: ok; rhyme 上平声一东; keywords 月: ok]\nrepeats 13%",
                     shown)) == 1  # 0.13 against 0.10
    assert len(check("--- 五言绝句:\n山风落日，归。\n[五言绝句: ok; rhyme 上平声一东; keywords 月: ok]\nrepeats 10%",
                     shown, spec="numbers 0.02", note="numbers within 0.02")) == 1  # without poems, exact text


def test_a_cpu_note_belongs_right_after_an_output(tmp_path):
    page = VARIES_PAGE.format(shown="loss 2.7480, bf16 faster: False", spec="verdicts", note="its own verdict")
    site, read = project(tmp_path, page.replace("    !!! cpu", "    Some prose.\n\n    !!! cpu"), LOSS)
    assert any("needs" in p or "go right after" in p or "followed by" in p for p in read.problems)
    site, read = project(tmp_path, page + "\n    More.\n\n    <!--varies: verdicts-->\n", LOSS)
    assert any("go right after a shown output" in p for p in read.problems)


def test_a_script_whose_output_the_page_does_not_show_fails(tmp_path):
    site, page = project(tmp_path, "'''python\n--8<-- \"snippets/demo/01_add.py\"\n'''\n", ADD)
    [report] = reports(site, page)
    assert "prints output that the page does not show" in report


def test_a_failing_script_fails_with_its_traceback_in_the_real_file(tmp_path):
    site, page = project(tmp_path, "'''python\n--8<-- \"snippets/demo/02_bad.py\"\n'''\n", {
        "snippets/demo/02_bad.py": "import json\n\n\ndef parse(text):\n    return json.loads(text)\n\n\nparse('{x')\n"})
    [report] = reports(site, page)
    assert 'snippets/demo/02_bad.py", line 8, in <module>' in report
    assert 'snippets/demo/02_bad.py", line 5, in parse' in report and "JSONDecodeError" in report


def test_scripts_run_in_their_own_process_from_the_root_as_main(tmp_path):
    site, page = project(tmp_path, """\
        '''python
        --8<-- "snippets/demo/01_state.py"
        '''

        <!--pytest-codeblocks:expected-output-->
        '''text
        set
        '''

        '''python
        --8<-- "snippets/demo/02_state.py"
        '''

        <!--pytest-codeblocks:expected-output-->
        '''text
        fresh True
        '''
        """, {"snippets/demo/shared.py": "value = 'fresh'\n",
              "snippets/demo/01_state.py": "import shared\nshared.value = 'set'\nprint(shared.value)\n",
              "snippets/demo/02_state.py": "import os, shared\nprint(shared.value, __name__ == '__main__' and "
                                           "os.getcwd() == " + repr(str(tmp_path)) + ")\n"})
    assert page.problems == [] and reports(site, page) == []


def test_a_shown_section_is_displayed_never_run_and_must_not_be_missing_or_empty(tmp_path):
    module = ("def keep():\n    # --8<-- [start:body]\n    open('ran.txt', 'w').write('ran')\n    raise SystemExit(1)\n"
              "    # --8<-- [end:body]\n    # --8<-- [start:empty]\n    # --8<-- [end:empty]\n")
    site, page = project(tmp_path, "'''python\n--8<-- \"snippets/demo/tensor.py:body\"\n'''\n",
                         {"snippets/demo/tensor.py": module})
    [block] = page.blocks
    assert block.kind == "shown" and block.run_key is None and page.problems == []
    assert site.expand(block.code)[0] == "open('ran.txt', 'w').write('ran')"  # methods render flush left
    assert reports(site, page) == [] and not (tmp_path / "ran.txt").exists()
    for section, problem in [("empty", "is empty"), ("gone", "could not be located")]:
        _, page = project(tmp_path, f"'''python\n--8<-- \"snippets/demo/tensor.py:{section}\"\n'''\n",
                          {"snippets/demo/tensor.py": module})
        assert len(page.problems) == 1 and problem in page.problems[0], page.problems


def test_python_written_on_the_page_or_mixed_with_a_script_is_rejected(tmp_path):
    _, page = project(tmp_path, "'''python\nprint(1)\n'''\n")
    assert len(page.problems) == 1 and "move this code into a script" in page.problems[0]
    _, page = project(tmp_path, "'''python\n--8<-- \"snippets/demo/01_add.py\"\n--8<-- \"snippets/demo/m.py\"\n'''\n",
                      {**ADD, "snippets/demo/m.py": "x = 1\n"})
    assert len(page.problems) == 1 and "block of its own" in page.problems[0]


def test_one_command_runs_once_and_both_languages_are_checked_against_it(tmp_path):
    """End to end through pytest: ids name page line and snippet; twin pages share one run of each script."""
    counter = "import pathlib\nf = pathlib.Path('runs.txt')\nf.write_text(f.read_text() + 'x' if f.exists() else 'x')\n"
    files = {"snippets/demo/01_add.py": counter + "print('2 + 2 =', 2 + 2)\n"}
    page = SHOWN_OUTPUT.format(shown="2 + 2 = 4") + "\n'''bash\npython snippets/demo/01_add.py\n'''\n"
    project(tmp_path, page, files, name="docs/en/p.md")
    project(tmp_path, page.replace("2 + 2 = 4", "2 + 2 = 5") + "\n'''py\nprint(1)\n'''\n", files, name="docs/zh/p.md")
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "tools").mkdir()
    for helper in ("course_pages.py", "fork_server.py"):
        shutil.copy(ROOT / "tools" / helper, tmp_path / "tools" / helper)
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\npythonpath = tools\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-rA", "docs"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST")})
    out = proc.stdout
    assert proc.returncode == 1, out
    assert "PASSED docs/en/p.md::L3[snippets/demo/01_add.py]" in out and "PASSED docs/en/p.md::L12" in out
    assert "FAILED docs/zh/p.md::L3[snippets/demo/01_add.py]" in out and "+2 + 2 = 4" in out
    assert "FAILED docs/zh/p.md::conventions" in out and "looks like code but would not run" in out
    assert (tmp_path / "runs.txt").read_text() == "x"  # four blocks, one run


REPORT = {"snippets/demo/01_report.py": (
    "from minigpt_course.checks.storage import check_contiguous_strides\n\n\n"
    "def mine(shape):\n    return None\n\n\nprint('strides:')\nprint(check_contiguous_strides(mine))\nprint('done')\n")}


def test_a_check_report_is_shown_in_each_pages_language_as_a_readers_run_prints_it(tmp_path, monkeypatch):
    """A script that prints a check report runs once for both pages, its report framed in both languages
    (minigpt_course.checks.BOTH_VAR), and each page reads its own: exactly what a reader's run prints with
    MINIGPT_LANG=zh or en, whatever the tester's locale. Controls: the zh page showing the English report
    fails; a script without reports prints the same for both pages."""
    from minigpt_course import checks

    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.delenv(checks.LANG_VAR, raising=False)
    key = ("script", "snippets/demo/01_report.py")
    project(tmp_path, "# T { #t }\n", {**REPORT, **ADD})
    assert cp.prints_reports(key, tmp_path) and not cp.prints_reports(("script", "snippets/demo/01_add.py"), tmp_path)
    done = cp.run(key, tmp_path)
    assert done.returncode == 0 and "\x02" in done.stdout, done.stderr
    reader = {}
    for lang in ("en", "zh"):
        env = {k: v for k, v in cp._env().items() if k != checks.BOTH_VAR} | {checks.LANG_VAR: lang}
        reader[lang] = subprocess.run([sys.executable, key[1]], cwd=tmp_path, env=env, capture_output=True,
                                      text=True, timeout=120).stdout
        assert cp.seen_by(done, lang).stdout == reader[lang]
    assert reader["en"].startswith("strides:\nmine: not yet\n") and reader["en"].endswith("\ndone\n")
    assert reader["zh"].startswith("strides:\nmine：还没通过\n") and reader["zh"].endswith("\ndone\n")
    plain = cp.run(("script", "snippets/demo/01_add.py"), tmp_path)
    assert cp.seen_by(plain, "zh").stdout == cp.seen_by(plain, "en").stdout == plain.stdout == "2 + 2 = 4\n"

    def page(shown):
        return (f"# T {{ #t }}\n\n{F}python\n--8<-- \"snippets/demo/01_report.py\"\n{F}\n\n"
                f"<!--pytest-codeblocks:expected-output-->\n{F}text\n{shown}{F}\n")

    for zh_shows, failing in (("zh", []), ("en", ["docs/zh/p.md:3"])):
        found = []
        for lang, shown in (("en", reader["en"]), ("zh", reader[zh_shows])):
            site, read = project(tmp_path, page(shown), REPORT, name=f"docs/{lang}/p.md")
            assert read.problems == []
            found += [r for b in read.blocks if b.run_key and (r := cp.report(b, done))]
        assert [r.split(" ")[0] for r in found] == failing, found
        assert all("-mine: not yet" in r and "+mine：还没通过" in r for r in found)


PROBE = """\
import os, random, sys
import numpy as np
print(__name__, sys.argv, sys.path[0], os.getcwd(), sys.stdin.read() == "")
print(random.random(), np.random.rand())
"""
RAISES = "import torch\n\n\ndef f():\n    raise ValueError('from the script')\n\n\nf()\n"


def test_a_forked_script_behaves_as_python_would_run_it(tmp_path, monkeypatch):
    """Scripts run in forks of a warm interpreter (tools/fork_server.py); what they see must be what
    `python snippets/...` from the root shows them, and unseeded randomness must still differ per run."""
    site, _ = project(tmp_path, "# T { #t }\n", {"snippets/demo/01_probe.py": PROBE, "snippets/demo/02_raise.py": RAISES})
    key = ("script", "snippets/demo/01_probe.py")
    forked = [cp.run(key, site.root).stdout.split("\n") for _ in range(2)]
    monkeypatch.setenv("MINIGPT_PAGE_FORK", "0")
    plain = cp.run(key, site.root).stdout.split("\n")
    assert forked[0][0] == forked[1][0] == plain[0]
    assert plain[0] == f"__main__ ['snippets/demo/01_probe.py'] {tmp_path / 'snippets/demo'} {tmp_path} True"
    assert forked[0][1] != forked[1][1]  # a fresh process's random state, not the server's
    for fork in ("1", "0"):
        monkeypatch.setenv("MINIGPT_PAGE_FORK", fork)
        done = cp.run(("script", "snippets/demo/02_raise.py"), site.root)
        assert done.returncode == 1 and done.stderr.startswith("Traceback (most recent call last):")
        assert 'snippets/demo/02_raise.py", line 8, in <module>' in done.stderr and "runpy" not in done.stderr
        assert done.stderr.rstrip().endswith("ValueError: from the script")


@pytest.mark.parametrize("fence", ["py", "python3", 'python title="x.py"', "{.python}", "", "pycon", "shell"])
def test_a_fence_that_would_not_run_is_rejected(tmp_path, fence):
    _, page = project(tmp_path, f"# T {{ #t }}\n\n{F}{fence}\nprint(1)\n{F}\n")
    assert not [b for b in page.blocks if b.run_key]
    assert len(page.problems) == 1 and "docs/zh/p.md:3" in page.problems[0], page.problems


@pytest.mark.parametrize("text, problem", [
    ("~~~python\nprint(1)\n~~~\n", "~~~"),
    ("> '''python\n> print(1)\n> '''\n", "quote"),
    ("'''bash\necho 1\n'''\n\n<!--pytest-codeblocks:expected-output-->\n'''python\n1\n'''\n", "must be a ```text"),
    ("'''bash\necho 1\n'''\n\n<!--pytest-codeblocks:cont-->\n'''bash\necho 2\n'''\n", "marker pytest-codeblocks:cont"),
    ("<!--pytest.mark.skip-->\n'''bash\necho 1\n'''\n", "marker pytest.mark.skip"),
    ("'''python\n--8<-- \"snippets/nope.py\"\n'''\n", "could not be found"),
])
def test_pages_that_break_a_rule_are_told_which_one(tmp_path, text, problem):
    _, page = project(tmp_path, text)
    assert any(problem in p for p in page.problems), page.problems


def test_shell_blocks_fail_on_a_middle_line_or_a_pipe_and_run_in_the_root_with_the_venv(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGPT_DATA", "/some/data")
    site, page = project(tmp_path, "'''bash\necho first\nls does-not-exist\necho last\n'''\n\n"
                                   "'''bash\nfalse | cat\n'''\n\n'''bash\npwd\ncommand -v python\necho \"$MINIGPT_DATA\"\n'''\n")
    middle, pipe = reports(site, page)
    assert "status 2" in middle and "does-not-exist" in middle
    assert middle.split("--- stdout ---")[1].split() == ["first"]
    assert "status 1" in pipe
    done = cp.run(page.blocks[2].run_key, site.root)
    assert done.stdout.split("\n")[:3] == [str(tmp_path), str(Path(sys.executable).parent / "python"), "/some/data"]


SKIPPED = """\
    # T {{ #t }}

    <!--pytest-codeblocks:skip-->

    {open}

    {indent}'''bash
    {indent}make serve
    {indent}'''
    """


def test_a_norun_block_is_skipped_with_its_visible_reason(tmp_path):
    _, page = project(tmp_path, SKIPPED.format(open='!!! norun "Serves until Ctrl+C"', indent="    "))
    [block] = page.blocks
    assert page.problems == [] and block.kind == "norun" and block.reason == "Serves until Ctrl+C"
    assert block.run_key is None


@pytest.mark.parametrize("opening, indent, problem", [
    ("Serve it:", "", "the reader is not told why"),
    ("!!! norun", "    ", "title that says why"),
])
def test_a_skip_must_be_visible_and_say_why(tmp_path, opening, indent, problem):
    _, page = project(tmp_path, SKIPPED.format(open=opening, indent=indent))
    assert any(problem in p for p in page.problems), page.problems


def test_a_block_in_a_norun_admonition_that_would_run_is_rejected(tmp_path):
    _, page = project(tmp_path, '!!! norun "Not run"\n\n    \'\'\'bash\n    echo hi\n    \'\'\'\n')
    assert len(page.problems) == 1 and "would run" in page.problems[0]


def test_answers_are_folded_and_named_as_answers(tmp_path):
    files = {"snippets/demo/01_answer_x.py": "", "snippets/demo/02_try.py": ""}
    fold = '??? success "Answer"\n\n    \'\'\'python\n    --8<-- "snippets/demo/{}.py"\n    \'\'\'\n'
    assert project(tmp_path, fold.format("01_answer_x"), files)[1].problems == []
    _, page = project(tmp_path, fold.format("02_try"), files)
    assert len(page.problems) == 1 and "NN_answer_*.py" in page.problems[0]
    _, page = project(tmp_path, "'''python\n--8<-- \"snippets/demo/01_answer_x.py\"\n'''\n", files)
    assert len(page.problems) == 1 and "NN_answer_*.py" in page.problems[0]


def test_a_going_further_fold_holds_ordinary_scripts(tmp_path):
    files = {"snippets/demo/01_answer_x.py": "", "snippets/demo/02_try.py": ""}
    for title in ('"Going further: more"', '"深入：更多"'):
        fold = f'??? note {title}\n\n    \'\'\'python\n    --8<-- "snippets/demo/{{}}.py"\n    \'\'\'\n'
        assert project(tmp_path, fold.format("02_try"), files)[1].problems == []
        _, page = project(tmp_path, fold.format("01_answer_x"), files)  # control: an answer is not depth
        assert len(page.problems) == 1 and "NN_answer_*.py" in page.problems[0]


README = "# R\n\n{lead} `make serve` runs until you press Ctrl+C.\n\n<!--pytest-codeblocks:skip-->\n'''bash\nmake serve\n'''\n"


def test_readme_marks_a_skipped_block_with_a_bold_lead_in(tmp_path):
    _, page = project(tmp_path, README.format(lead="**Not run by the tests:**"), name="README.md")
    assert page.problems == [] and page.blocks[0].kind == "norun"
    _, page = project(tmp_path, README.format(lead="Start the site:"), name="README.md")
    assert len(page.problems) == 1 and "README.md:6" in page.problems[0] and "**Not run by the tests**" in page.problems[0]


def test_a_script_that_times_itself_runs_alone(tmp_path):
    """times_itself picks the scripts that read time.perf_counter; RunLock.alone waits for the commands that
    run and keeps new ones from starting until it is done, while shared commands run side by side."""
    import threading

    (tmp_path / "timed.py").write_text("import time\nt0 = time.perf_counter()\n")
    (tmp_path / "plain.py").write_text("print(1)\n")
    assert cp.times_itself(("script", "timed.py"), tmp_path)
    assert not cp.times_itself(("script", "plain.py"), tmp_path)
    assert not cp.times_itself(("shell", "python -c 'import time; time.perf_counter()'"), tmp_path)

    lock, log = cp.RunLock(), []
    holding, release = [threading.Event(), threading.Event()], threading.Event()

    def shared(i):
        with lock.shared():
            log.append(f"{i} starts")
            holding[i].set()
            release.wait(5)
            log.append(f"{i} ends")

    a, b = threading.Thread(target=shared, args=(0,)), threading.Thread(target=shared, args=(1,))
    a.start()
    b.start()
    assert all(h.wait(5) for h in holding)  # both hold the lock at once: shared commands run side by side
    entered, leave, late_in = threading.Event(), threading.Event(), threading.Event()

    def timed():
        with lock.alone():
            log.append("alone")
            entered.set()
            leave.wait(5)
            log.append("alone ends")

    def late():
        with lock.shared():
            log.append("late starts")
            late_in.set()

    t = threading.Thread(target=timed)
    t.start()
    assert not entered.wait(0.2)  # the timed run waits for the two running commands
    release.set()
    assert entered.wait(5)
    c = threading.Thread(target=late)
    c.start()
    assert not late_in.wait(0.2)  # a command asked for while the timed run holds the lock waits
    leave.set()
    assert late_in.wait(5)
    for th in (a, b, t, c):
        th.join(5)
    assert log.index("alone") > max(log.index("0 ends"), log.index("1 ends")), log
    assert log.index("late starts") > log.index("alone ends"), log
