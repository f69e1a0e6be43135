"""The documentation ships with the package and says what the code does.

* every ``.md`` file that the package, the compiled sources, README.md,
  docs/ or fuzz/ mention exists in the repository (nothing points at
  documents users cannot read);
* every example in docs/cli.md still prints exactly what the page shows.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# a path ending in .md: letters, digits, _ - . / (markdown link targets included)
_MD = re.compile(r"(?<![\w/.-])((?:\.\./|\./)?[\w.-]+(?:/[\w.-]+)*\.md)\b")


def _sources():
    for top in ("mjfast", "src", "docs", "fuzz", "tools"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith((".py", ".pyx", ".pxi", ".pxd", ".md")):
                    yield os.path.join(d, f)
    for f in ("README.md", "pyproject.toml", "setup.py"):
        yield os.path.join(ROOT, f)


def _references():
    for path in _sources():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in _MD.finditer(text):
            yield path, m.group(1)


def test_the_reference_scan_finds_the_known_references():
    # the scan itself must work: README links docs/notation.md and docs/cli.md
    found = {(os.path.relpath(p, ROOT), ref) for p, ref in _references()}
    assert ("README.md", "docs/notation.md") in found
    assert ("README.md", "docs/cli.md") in found
    assert any(ref == "docs/notation.md" and p.startswith("mjfast") for p, ref in found)


def test_every_referenced_md_file_exists():
    missing = []
    for path, ref in _references():
        here = os.path.dirname(path)
        if not (os.path.isfile(os.path.join(ROOT, ref)) or os.path.isfile(os.path.join(here, ref))):
            missing.append(f"{os.path.relpath(path, ROOT)}: {ref}")
    assert not missing, "references to files that are not in the repository:\n  " + "\n  ".join(missing)


# (mjfast/spec/ is the package's own data: not a team spec)
_TEAM_SPEC = re.compile(r"\.\./shared|(?<!mjfast/)\bspec/|mcr-rules|notation spec")


def test_nothing_points_at_the_team_specs():
    assert _TEAM_SPEC.search("see spec/formats.md") and not _TEAM_SPEC.search("mjfast/spec/flags.py")
    bad = []
    for path in _sources():
        with open(path, encoding="utf-8") as f:
            for k, line in enumerate(f, 1):
                if _TEAM_SPEC.search(line):
                    bad.append(f"{os.path.relpath(path, ROOT)}:{k}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_cli_examples_print_what_docs_cli_md_shows():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "cli_doc.py"), "--check"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, ("docs/cli.md is out of date (python tools/cli_doc.py rewrites it):\n"
                                 + out.stdout[-4000:] + out.stderr[-2000:])


def _sections(doc):
    """{heading: text} of the page's ``## `` sections."""
    parts = re.split(r"^## ", doc, flags=re.M)
    return {p.split("\n", 1)[0]: p for p in parts[1:]}


def _commands(parser, prefix="mjfast"):
    """(command words, parser) for every command and sub-command."""
    for action in parser._actions:
        if action.__class__.__name__ == "_SubParsersAction":
            for name, p in action.choices.items():
                yield f"{prefix} {name}", p
                yield from _commands(p, f"{prefix} {name}")


def test_cli_doc_covers_every_command_and_option():
    # each option is named in the section of its own command, not just somewhere
    from mjfast.cli import build_parser

    with open(os.path.join(ROOT, "docs/cli.md"), encoding="utf-8") as f:
        sections = _sections(f.read())
    missing = []
    for words, p in _commands(build_parser()):
        text = "".join(body for head, body in sections.items() if words in head)
        if not text:
            if not any(w.startswith(words + " ") for w, _ in _commands(build_parser())):
                missing.append(f"{words}: no section")
            continue
        for action in p._actions:
            for opt in action.option_strings:
                if opt.startswith("--") and opt != "--help" and opt not in text:
                    missing.append(f"{words} {opt}")
    assert not missing, "not in docs/cli.md: " + ", ".join(missing)


def test_ci_installs_and_tests_as_the_readme_says():
    # .ci/run makes a fresh venv and runs the README's install and test lines
    # verbatim: a README that changes them changes what CI checks
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"```bash\n(.*?)```", f.read(), re.S)
    lines = [ln.strip() for b in blocks for ln in b.splitlines() if ln.strip()]
    install = [ln for ln in lines if ln.startswith("pip install ")]
    test = [ln for ln in lines if ln.startswith("python -m pytest")]
    # the users' line (every extra), then the contributors' (editable, .[dev])
    assert install == ["pip install '.[all]' && mjfast score \"[567m2][EEE1]45m678pFF6m\" --self-drawn",
                       "pip install -e '.[dev]' && mjfast score \"[567m2][EEE1]45m678pFF6m\" --self-drawn"]
    assert test == ["python -m pytest"]
    with open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8") as f:
        ci = [ln.strip() for ln in f if not ln.lstrip().startswith("#")]
    at = [ci.index(ln + " ||") if ln + " ||" in ci else None for ln in install]
    assert None not in at, "a README install line is not .ci/run's"
    assert at == sorted(at), ".ci/run installs in another order than the README"
    assert any(ln == test[0] + " || status=$?" for ln in ci), "the README's test command is not .ci/run's"
    assert any("-m venv" in ln for ln in ci) and any("rm -rf" in ln for ln in ci)
