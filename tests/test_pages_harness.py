"""The page harness (tests/pages_harness.py + conftest.py) catches what it promises to catch.

Each test writes a small page into a temporary project, with the same snippet settings as the
real mkdocs.yml, and runs it through the harness.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import pages_harness as ph

ROOT = Path(__file__).resolve().parents[1]
MKDOCS_YML = """\
site_name: harness self-test
markdown_extensions:
  - pymdownx.snippets:
      check_paths: true
      base_path:
        - !relative $config_dir
"""
FENCE = "```"


def project(tmp_path: Path, page: str, snippets: dict[str, str] | None = None,
            name: str = "docs/zh/p.md") -> tuple[ph.Site, Path]:
    (tmp_path / "mkdocs.yml").write_text(MKDOCS_YML, encoding="utf-8")
    (tmp_path / "docs").mkdir(exist_ok=True)
    for snippet, text in (snippets or {}).items():
        (tmp_path / snippet).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / snippet).write_text(textwrap.dedent(text), encoding="utf-8")
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(page).replace("'''", FENCE), encoding="utf-8")
    return ph.Site(tmp_path), path


def run_all(site: ph.Site, path: Path) -> list[str]:
    """Run every block; return the failure reports (empty when all pass)."""
    page = ph.load_page(site, path)
    failures = []
    for block in page.blocks:
        if block.skipped:
            continue
        try:
            ph.run_block(block, site.root)
        except ph.BlockFailure as e:
            failures.append(str(e))
    return failures


def test_a_wrong_shown_output_fails_with_a_diff(tmp_path):
    site, path = project(tmp_path, """\
        # T { #t }

        '''python
        --8<-- "snippets/demo/01_add.py"
        '''

        <!--pytest-codeblocks:expected-output-->
        '''text
        2 + 2 = 5
        '''
        """, {"snippets/demo/01_add.py": "print('2 + 2 =', 2 + 2)\n"})
    [report] = run_all(site, path)
    assert "docs/zh/p.md:3 (snippets/demo/01_add.py)" in report
    assert "-2 + 2 = 5" in report and "+2 + 2 = 4" in report


def test_the_right_shown_output_passes_and_names_the_snippet(tmp_path):
    site, path = project(tmp_path, """\
        # T { #t }

        '''python
        --8<-- "snippets/demo/01_add.py"
        '''

        <!--pytest-codeblocks:expected-output-->
        '''text
        2 + 2 = 4
        '''
        """, {"snippets/demo/01_add.py": "print('2 + 2 =', 2 + 2)\n"})
    page = ph.load_page(site, path)
    assert [b.name for b in page.blocks] == ["L3[snippets/demo/01_add.py]"]
    assert not page.problems and run_all(site, path) == []


@pytest.mark.parametrize("fence", ["py", "python3", 'python title="x.py"', "{.python}", "", "pycon", "shell"])
def test_a_fence_that_would_not_run_is_rejected(tmp_path, fence):
    site, path = project(tmp_path, f"# T {{ #t }}\n\n{FENCE}{fence}\nprint(1)\n{FENCE}\n")
    page = ph.load_page(site, path)
    assert page.blocks == []
    assert len(page.problems) == 1 and "docs/zh/p.md:3" in page.problems[0], page.problems


def test_a_tilde_fence_is_rejected(tmp_path):
    site, path = project(tmp_path, "# T { #t }\n\n~~~python\nprint(1)\n~~~\n")
    problems = ph.load_page(site, path).problems
    assert len(problems) == 1 and "~~~" in problems[0]


def test_an_expected_output_must_be_a_text_fence(tmp_path):
    site, path = project(tmp_path, """\
        '''python
        print(1)
        '''

        <!--pytest-codeblocks:expected-output-->
        '''python
        1
        '''
        """)
    problems = ph.load_page(site, path).problems
    assert any("must be a ```text fence" in p for p in problems), problems


def test_a_failing_middle_line_of_a_bash_block_fails_and_shows_stderr(tmp_path):
    site, path = project(tmp_path, """\
        '''bash
        echo first
        ls does-not-exist
        echo last
        '''
        """)
    [report] = run_all(site, path)
    assert "status 2" in report and "does-not-exist" in report  # ls's message, from stderr
    assert "--- stdout ---\nfirst" in report and "last" not in report.split("--- stdout ---")[1]


def test_a_failing_pipe_fails(tmp_path):
    site, path = project(tmp_path, "```bash\nfalse | cat\n```\n")
    [report] = run_all(site, path)
    assert "exited with status 1" in report


def test_a_shell_block_runs_in_the_root_with_the_venv_first_and_data_passed(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIGPT_DATA", "/some/data")
    site, path = project(tmp_path, """\
        '''bash
        pwd
        command -v python
        echo "$MINIGPT_DATA"
        '''
        """)
    [block] = ph.load_page(site, path).blocks
    out = ph.run_shell(block, site.root).split("\n")
    assert out[0] == str(site.root)
    assert out[1] == str(Path(sys.executable).parent / "python")
    assert out[2] == "/some/data"


def test_a_python_failure_shows_a_traceback_at_the_snippet_line(tmp_path):
    site, path = project(tmp_path, """\
        '''python
        --8<-- "snippets/demo/02_bad.py"
        '''
        """, {"snippets/demo/02_bad.py": """\
        import json

        def parse(text):
            return json.loads(text)

        parse("{not json")
        """})
    [report] = run_all(site, path)
    assert 'File "snippets/demo/02_bad.py", line 6, in <module>' in report
    assert 'File "snippets/demo/02_bad.py", line 4, in parse' in report
    assert "return json.loads(text)" in report
    assert "json/decoder.py" in report  # the traceback goes on into the library
    assert "JSONDecodeError" in report
    assert "pages_harness.py" not in report


def test_a_section_include_keeps_the_snippet_line_numbers(tmp_path):
    site, path = project(tmp_path, """\
        '''python
        --8<-- "snippets/demo/03_part.py:boom"
        '''
        """, {"snippets/demo/03_part.py": """\
        x = 1
        # --8<-- [start:boom]
        y = 2
        raise RuntimeError("line 4")
        # --8<-- [end:boom]
        """})
    [report] = run_all(site, path)
    assert 'File "snippets/demo/03_part.py", line 4, in <module>' in report


def test_a_python_failure_in_a_page_block_points_at_the_page_line(tmp_path):
    site, path = project(tmp_path, """\
        # T { #t }

        '''python
        a = 1
        b = a / 0
        '''
        """)
    [report] = run_all(site, path)
    assert 'File "docs/zh/p.md", line 5, in <module>' in report and "ZeroDivisionError" in report


def test_blocks_run_on_their_own_from_the_root_as_main(tmp_path):
    site, path = project(tmp_path, """\
        '''python
        import random
        import numpy as np
        np.random.seed(123)
        random.seed(123)
        leaked = True
        '''

        '''python
        import os, random
        import numpy as np
        import torch
        print(np.random.randint(10**9), random.randint(0, 10**9), torch.randint(10**9, (1,)).item())
        print(os.getcwd())
        print("leaked" in globals())
        if __name__ == "__main__":
            print("main")
        '''
        """)
    blocks = ph.load_page(site, path).blocks
    ph.run_block(blocks[0], site.root)
    after = ph.run_block(blocks[1], site.root)
    alone = ph.run_block(blocks[1], site.root)
    assert after == alone
    lines = after.split("\n")
    assert lines[1:4] == [str(site.root), "False", "main"]


def test_cont_joins_blocks(tmp_path):
    site, path = project(tmp_path, """\
        '''python
        x = 20
        '''

        <!--pytest-codeblocks:cont-->
        '''python
        print(x + 1)
        '''

        <!--pytest-codeblocks:expected-output-->
        '''text
        21
        '''
        """)
    [block] = ph.load_page(site, path).blocks
    assert ph.run_block(block, site.root) == "21\n"


SKIPPED = """\
    # T {{ #t }}

    <!--pytest-codeblocks:skip-->

    {open}

    {indent}'''bash
    {indent}make serve
    {indent}'''
    """


def test_a_skip_without_a_visible_marker_is_rejected(tmp_path):
    site, path = project(tmp_path, SKIPPED.format(open="Serve it:", indent=""))
    page = ph.load_page(site, path)
    assert len(page.problems) == 1 and "norun" in page.problems[0] and "docs/zh/p.md:7" in page.problems[0]


def test_a_skip_inside_a_norun_admonition_is_accepted(tmp_path):
    site, path = project(tmp_path, SKIPPED.format(open='!!! norun "Serves until Ctrl+C"', indent="    "))
    page = ph.load_page(site, path)
    assert page.problems == []
    [block] = page.blocks
    assert block.skipped and block.name == "L7"


def test_a_norun_admonition_needs_a_reason(tmp_path):
    site, path = project(tmp_path, SKIPPED.format(open="!!! norun", indent="    "))
    problems = ph.load_page(site, path).problems
    assert any("title that says why" in p for p in problems), problems


def test_a_block_in_a_norun_admonition_that_would_run_is_rejected(tmp_path):
    site, path = project(tmp_path, """\
        !!! norun "Not run"

            '''bash
            echo hi
            '''
        """)
    problems = ph.load_page(site, path).problems
    assert len(problems) == 1 and "would run" in problems[0]


def test_a_missing_snippet_is_a_problem_not_an_empty_block(tmp_path):
    site, path = project(tmp_path, '```python\n--8<-- "snippets/nope.py"\n```\n')
    page = ph.load_page(site, path)
    assert page.blocks == [] and "could not be found" in page.problems[0]


def test_through_pytest_ids_name_the_page_line_and_snippet(tmp_path):
    """End to end: the root conftest.py collects a page and reports failures by page line."""
    site, path = project(tmp_path, """\
        # T { #t }

        '''python
        --8<-- "snippets/demo/01_add.py"
        '''

        <!--pytest-codeblocks:expected-output-->
        '''text
        2 + 2 = 5
        '''

        '''bash
        echo ok
        '''

        '''py
        print("never run")
        '''
        """, {"snippets/demo/01_add.py": "print('2 + 2 =', 2 + 2)\n"})
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "pages_harness.py", tmp_path / "tests" / "pages_harness.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-rA", "docs"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST")},
    )
    out = proc.stdout
    assert proc.returncode == 1, out
    assert "FAILED docs/zh/p.md::L3[snippets/demo/01_add.py]" in out
    assert "PASSED docs/zh/p.md::L12" in out
    assert "FAILED docs/zh/p.md::conventions" in out and "looks like code but would not run" in out
    assert "+2 + 2 = 4" in out


README = """\
    # R

    {lead} `make serve` runs until you press Ctrl+C.

    <!--pytest-codeblocks:skip-->
    '''bash
    make serve
    '''
    """


def test_readme_marks_a_skipped_block_with_a_bold_lead_in(tmp_path):
    site, path = project(tmp_path, README.format(lead="**Not run by the tests:**"), name="README.md")
    page = ph.load_page(site, path)
    assert page.problems == [] and page.blocks[0].skipped


def test_readme_rejects_a_skip_without_the_lead_in(tmp_path):
    site, path = project(tmp_path, README.format(lead="Start the site:"), name="README.md")
    problems = ph.load_page(site, path).problems
    assert len(problems) == 1 and "README.md:6" in problems[0] and "**Not run by the tests**" in problems[0]


def test_a_fence_in_a_quote_is_rejected(tmp_path):
    site, path = project(tmp_path, "> ```python\n> print(1)\n> ```\n")
    problems = ph.load_page(site, path).problems
    assert problems and "quote" in problems[0]
