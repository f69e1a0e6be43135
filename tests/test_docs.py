"""The documentation ships with the package and says what the code does.

* every ``.md`` file that the package, the compiled sources, README.md,
  docs/ or fuzz/ mention exists in the repository (nothing points at
  documents users cannot read);
* every example in docs/cli.md still prints exactly what the page shows;
* every code block of README.md and of every docs/ page runs as written, and
  prints what its comments say (below: how a comment claims a value).
"""
from __future__ import annotations

import ast
import doctest
import glob
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize

import numpy as np
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


# -- the code blocks of README.md and docs/*.md run as written ------------------------
#
# A page's ```python blocks run in order in one namespace (a block may use what
# the blocks before it defined), in a temporary directory that holds a copy of
# docs/examples/.  A top-level expression whose comment starts with a Python
# literal claims that value: ``s.total  # 6   (all points)`` must give 6;
# ``...`` inside the literal stands for anything (``[0, 1, ..., 8]``), and a
# comment starting with an object's repr (``[Hand('...')]``) is compared with
# the value's repr.  A comment starting with words is prose.  The ```bash
# blocks run line by line (a failing command fails the test), except the
# install and test-suite lines, which .ci/run runs (see the test above).
# ```text blocks are synopses and diagrams, not run; ```json blocks are data
# (records, results) and ```console blocks are docs/cli.md's transcripts,
# which tools/cli_doc.py checks (see test_cli_examples_print_what_docs_cli_md_shows).


RUN_PAGES = ("README.md",) + tuple(sorted(os.path.relpath(p, ROOT).replace(os.sep, "/")
                                          for p in glob.glob(os.path.join(ROOT, "docs", "*.md"))))
# the claims each page must check at least (a reader that found none would pass anything)
MIN_CLAIMS = {"README.md": 25, "docs/testing.md": 8, "docs/bots.md": 6, "docs/botzone.md": 6,
              "docs/game.md": 10, "docs/logs.md": 3, "docs/notation.md": 8, "docs/rules.md": 19,
              "docs/stats.md": 4, "docs/wildcards.md": 8}
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_OBJ_REPR = re.compile(r"^[\[({]*[A-Za-z_][\w.]*\(")
_STOP = " :;,"      # where a claim ends, outside brackets and quotes


def _fenced(path):
    """(language, first line number, code) of every fenced block of a page."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    for m in _FENCE.finditer(text):
        yield m.group(1), text[:m.start()].count("\n") + 2, m.group(2)


def _claim_text(comment):
    """The comment's leading literal-looking part: up to the first separator
    outside brackets and quotes."""
    depth, quote, i = 0, None, 0
    while i < len(comment):
        c = comment[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c in _STOP:
            break
        i += 1
    return comment[:i].strip()


def _claim(comment):
    """('value', v) / ('repr', pattern) / None for a prose comment."""
    text = _claim_text(comment.lstrip("#").strip())
    if not text:
        return None
    try:
        v = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return ("repr", text) if _OBJ_REPR.match(text) else None
    if "..." in text:
        return ("repr", text)
    return ("value", v)


def _matches(value, claim):
    kind, want = claim
    if kind == "repr":
        pattern = ".*".join(re.escape(part) for part in want.split("..."))
        return re.fullmatch(pattern, repr(value), re.S) is not None
    if isinstance(want, bool):
        return isinstance(value, (bool, np.bool_)) and bool(value) == want
    if isinstance(value, np.ndarray):
        return value.shape == np.shape(want) and bool(np.array_equal(value, want))
    try:
        return bool(value == want)
    except ValueError:           # a container of arrays
        return False


def test_the_claim_reader_tells_claims_from_prose():
    assert _claim("# 6   (all points, flowers included)") == ("value", 6)
    assert _claim("# False: fewer than 8 points") == ("value", False)
    assert _claim("# (42, -14, -14, -14): (winner, 1 left)") == ("value", (42, -14, -14, -14))
    assert _claim("# {} here; {'fourth_tile': 'dropped'}") == ("value", {})
    assert _claim("# [0, 1, ..., 8]  (tile indices)") == ("repr", "[0, 1, ..., 8]")
    assert _claim("# [Hand('[678p1]2223555789p4p')]") == ("repr", "[Hand('[678p1]2223555789p4p')]")
    assert _claim("# (N,) bool; workers") is None
    assert _claim("# tiles that lower the shanten") is None
    assert _matches(list(range(9)), ("repr", "[0, 1, ..., 8]"))
    assert not _matches(list(range(10)), ("repr", "[0, 1, ..., 8]"))
    assert _matches(np.int64(6), ("value", 6)) and not _matches(7, ("value", 6))
    assert _matches(np.bool_(True), ("value", True)) and not _matches(1, ("value", True))
    assert _matches(np.array([1, 2]), ("value", [1, 2])) and not _matches(np.array([1, 3]), ("value", [1, 2]))


def _comments(code):
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string
    return out


def _run_python(code, where, ns):
    """Run a block statement by statement; returns the number of claims checked."""
    tree = ast.parse(code, where)
    comments = _comments(code)
    checked = 0
    for stmt in tree.body:
        line = f"{where}, line {stmt.lineno - 1}"
        if not isinstance(stmt, ast.Expr):
            exec(compile(ast.Module([stmt], []), line, "exec"), ns)
            continue
        expr = stmt.value
        if (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "print"
                and expr.args and not expr.keywords and not any(isinstance(a, ast.Starred) for a in expr.args)):
            # print(x)  # claim: the claim is about x; print(x, y): about (x, y) (printed as well)
            args = tuple(eval(compile(ast.Expression(a), line, "eval"), ns) for a in expr.args)
            print(*args)
            value = args[0] if len(args) == 1 else args
        else:
            value = eval(compile(ast.Expression(expr), line, "eval"), ns)
        same_line = [s for s in tree.body if s.end_lineno == stmt.end_lineno]
        comment = comments.get(stmt.end_lineno)
        claim = _claim(comment) if comment and len(same_line) == 1 else None
        if claim is not None:
            checked += 1
            assert _matches(value, claim), f"{line}: {ast.unparse(stmt)} is {value!r}, the page says {comment}"
    return checked


def _run_doctest(code, where, ns):
    """Run an interpreter-session block; returns the number of outputs checked."""
    test = doctest.DocTestParser().get_doctest(code, ns, where, where, 0)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    result = runner.run(test, out=out.write, clear_globs=False)
    ns.update(test.globs)       # (DocTest works on a copy) later blocks see what this one defined
    assert result.failed == 0, f"{where}:\n{out.getvalue()}"
    return sum(1 for ex in test.examples if ex.want)


_NOT_RUN_HERE = re.compile(r"^(pip install|python -m pytest)\b")


def _run_bash(code, where, cwd, env):
    ran = 0
    # a line ending in a backslash goes on on the next line: one command
    lines = re.sub(r"\\\n", " ", code).splitlines()
    for k, ln in enumerate(lines):
        cmd = ln.strip()
        if not cmd or cmd.startswith("#") or _NOT_RUN_HERE.match(cmd):
            continue
        out = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, f"{where}, line {k}: {cmd}\nexit {out.returncode}\n{out.stdout[-2000:]}{out.stderr[-2000:]}"
        ran += 1
    return ran


@pytest.fixture
def docs_dir(tmp_path, monkeypatch):
    shutil.copytree(os.path.join(ROOT, "docs", "examples"), tmp_path / "docs" / "examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("page", RUN_PAGES)
def test_every_code_block_runs_and_prints_what_its_comments_say(page, docs_dir):
    ns = {"__name__": "__docs__"}
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    kinds, claims, commands = [], 0, 0
    for lang, line, code in _fenced(page):
        where = f"{page}:{line}"
        kinds.append(lang)
        assert lang in ("python", "bash", "text", "json", "console"), \
            f"{where}: a block without a language (python, bash, text, json or console)"
        if lang == "python" and code.lstrip().startswith(">>>"):
            claims += _run_doctest(code, where, ns)
        elif lang == "python":
            claims += _run_python(code, where, ns)
        elif lang == "bash":
            commands += _run_bash(code, where, str(docs_dir), env)
    # the page's claims are checked (a reader that found none would pass anything)
    assert claims >= MIN_CLAIMS.get(page, 0), claims
    assert ("python" in kinds) == (page in MIN_CLAIMS), f"{page}: python blocks and MIN_CLAIMS disagree"
    if page == "README.md":
        assert commands >= 8


def test_the_runner_checks_print_claims_doctests_and_continued_commands(tmp_path):
    ns = {}
    assert _run_python("x = 2\nprint(x + 1)   # 3\n", "t", ns) == 1
    assert _run_python("print(x, x + 1)   # (2, 3)\n", "t", ns) == 1
    with pytest.raises(AssertionError):
        _run_python("print(2)   # 3\n", "t", {})
    assert _run_doctest(">>> y = 4\n>>> y * 2\n8\n", "t", ns) == 1 and ns["y"] == 4
    with pytest.raises(AssertionError):
        _run_doctest(">>> 1 + 1\n3\n", "t", {})
    assert _run_bash("test \\\n  1 -eq 1\n", "t", str(tmp_path), dict(os.environ)) == 1
    with pytest.raises(AssertionError):
        _run_bash("test \\\n  1 -eq 2\n", "t", str(tmp_path), dict(os.environ))
