"""The package type-checks, and the stubs of its compiled modules match them.

mypy checks mjfast/ with the settings of pyproject.toml ([tool.mypy]), the
compiled modules seen through their stubs (mjfast/_core.pyi, ...); stubtest
imports each compiled module and compares every name, signature and class
of the stub with the runtime object, so a changed .pyx signature fails here
until its stub follows (docs/architecture.md, "Types").  mypy comes with the
dev extra (pip install -e '.[dev]', as CI installs; mypy runs on Python
3.10+); without it these tests are skipped.
"""
import contextlib
import importlib.machinery
import io
import os
import sys

import pytest

_WHY = "mypy is not installed (the dev extra has it on Python 3.10+: pip install -e '.[dev]')"
mypy_api = pytest.importorskip("mypy.api", reason=_WHY)
stubtest = pytest.importorskip("mypy.stubtest", reason=_WHY)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "mjfast")
CONFIG = os.path.join(ROOT, "pyproject.toml")
ALLOWLIST = os.path.join(ROOT, "tests", "stubtest_allowlist.txt")


def _compiled_modules():
    """The compiled modules of the package (dotted names), from the extension
    files next to the sources; the running interpreter's suffixes only."""
    import mjfast
    # the package imported (the checkout's in place build, or an installed one)
    pkg = os.path.dirname(os.path.abspath(mjfast.__file__))
    found = set()
    for dirpath, _dirs, files in os.walk(pkg):
        for f in files:
            # (the suffixes run from the most specific, ".cpython-311-...so", to ".so")
            suffix = next((x for x in importlib.machinery.EXTENSION_SUFFIXES if f.endswith(x)), None)
            if suffix is not None:
                rel = os.path.relpath(os.path.join(dirpath, f[:-len(suffix)]), os.path.dirname(pkg))
                found.add(rel.replace(os.sep, "."))
    return sorted(found)


def test_mypy_finds_no_error_in_the_package(tmp_path):
    # a cache of its own: a run does not depend on (or leave) a .mypy_cache
    out, err, status = mypy_api.run(["--config-file", CONFIG, "--cache-dir", str(tmp_path / "mypy-cache"),
                                     "--no-error-summary", "--show-error-codes", PACKAGE])
    # (exit 1 on any error; its notes alone leave it 0)
    assert status == 0, f"mypy (exit {status}):\n{out}{err}"


def test_every_compiled_module_has_a_stub():
    mods = _compiled_modules()
    # the four of today at least: a build that lost one is no proof of anything
    assert {"mjfast._core", "mjfast._engine", "mjfast._game", "mjfast._wild"} <= set(mods), mods
    missing = [m for m in mods if not os.path.exists(os.path.join(ROOT, *m.split(".")) + ".pyi")]
    assert not missing, f"compiled modules without a .pyi stub next to them: {missing}"


def _stubtest(args, tmp_path, monkeypatch):
    """(exit status, report) of stubtest, run in tmp_path: its mypy cache
    goes there (it takes no --cache-dir), the stubs are found through
    MYPYPATH, whatever directory pytest was started in."""
    monkeypatch.chdir(tmp_path)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        status = stubtest.test_stubs(stubtest.parse_options(args + ["--mypy-config-file", CONFIG]))
    return status, buf.getvalue()


def test_stubs_match_the_compiled_modules(tmp_path, monkeypatch):
    mods = _compiled_modules()
    monkeypatch.setenv("MYPYPATH", ROOT)
    status, report = _stubtest(mods + ["--allowlist", ALLOWLIST], tmp_path, monkeypatch)
    assert status == 0, f"stubtest {' '.join(mods)} (exit {status}):\n{report}"


def test_stubtest_catches_a_stub_that_drifted(tmp_path, monkeypatch):
    # the check above can fail: a stub whose signature differs from the
    # runtime's (an argument renamed) is reported
    stub = tmp_path / "mjfast_drift_probe.pyi"
    stub.write_text("def wind_code(value: object) -> int: ...\n")
    (tmp_path / "mjfast_drift_probe.py").write_text("from mjfast._core import wind_code\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("MYPYPATH", str(tmp_path))
    status, report = _stubtest(["mjfast_drift_probe"], tmp_path, monkeypatch)
    sys.modules.pop("mjfast_drift_probe", None)
    assert status != 0 and 'stub parameter "value" differs from runtime parameter "v"' in report, report
