"""setup.py's build of the extensions on a machine without a working C compiler.

The build tries the compiler on a one-line C file that includes Python.h
before anything else; when that fails, the build stops with one message that
says a source build needs a C compiler (and how to get one on this OS) and
how to get a wheel instead, not with a failed command deep in the build.
setup.py is executed here with ``setup()`` and ``cythonize()`` replaced by
no-ops, so that its build_ext class can be driven directly.
"""
from __future__ import annotations

import os
import re
import sys
from unittest import mock

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETUP = os.path.join(ROOT, "setup.py")


@pytest.fixture(scope="module")
def setup_py(tmp_path_factory):
    import Cython.Build
    import setuptools

    with open(SETUP, encoding="utf-8") as f:
        code = compile(f.read(), SETUP, "exec")
    ns = {"__file__": SETUP, "__name__": "mjfast_setup_under_test"}
    cwd = os.getcwd()
    # setup.py keeps a stamp of the last build's kind in ./build: keep it out of the checkout
    os.chdir(tmp_path_factory.mktemp("setup-cwd"))
    try:
        with mock.patch.object(setuptools, "setup", lambda **kw: None), \
                mock.patch.object(Cython.Build, "cythonize", lambda exts, **kw: exts):
            exec(code, ns)
    finally:
        os.chdir(cwd)
    return ns


def _build_ext_command(ns, tmp_path):
    from setuptools import Distribution, Extension

    src = tmp_path / "never_compiled.c"
    src.write_text("#error the probe must stop the build before this file\n")
    dist = Distribution({"name": "probe", "ext_modules": [Extension("probe", [str(src)])],
                         "cmdclass": {"build_ext": ns["BuildExt"]}})
    cmd = ns["BuildExt"](dist)
    cmd.build_lib = str(tmp_path / "lib")
    cmd.build_temp = str(tmp_path / "temp")
    cmd.ensure_finalized()
    return cmd


@pytest.mark.skipif(sys.platform == "win32", reason="CC names the compiler of the unix compiler class only")
def test_a_missing_compiler_stops_the_build_with_one_message(setup_py, tmp_path, monkeypatch):
    from setuptools.errors import PlatformError

    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    cmd = _build_ext_command(setup_py, tmp_path)
    with pytest.raises(PlatformError) as err:
        cmd.run()
    msg = str(err.value)
    assert msg.startswith("mjfast: building from source needs a C compiler"), msg
    assert "no-such-cc" in msg                        # the build tools' own words about what failed
    assert "pip install mjfast-<version>-" in msg and "python -m build --wheel" in msg
    # stopped before the extension: nothing compiled, no OpenMP probe
    assert not (tmp_path / "lib").exists() and not os.path.exists(os.path.join(str(tmp_path / "temp"), "probe"))


@pytest.mark.skipif(sys.platform == "win32", reason="CC names the compiler of the unix compiler class only")
def test_a_compiler_that_fails_on_python_h_is_a_missing_compiler(setup_py, tmp_path, monkeypatch):
    # a "compiler" that runs and fails, as gcc does without Python's headers
    fake = tmp_path / "failing-cc"
    fake.write_text("#!/bin/sh\necho 'fatal error: Python.h: No such file or directory' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("CC", str(fake))
    from setuptools.errors import PlatformError

    cmd = _build_ext_command(setup_py, tmp_path)
    with pytest.raises(PlatformError) as err:
        cmd.run()
    msg = str(err.value)
    assert msg.startswith("mjfast: building from source needs a C compiler and Python's headers"), msg
    assert "failing-cc" in msg and "exit" in msg, msg


def test_a_working_compiler_passes_the_probe(setup_py):
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    # the compiler this suite's own build used (the suite runs on a source build)
    cmd = build_ext(Distribution({"name": "probe"}))
    cmd.ensure_finalized()
    from distutils.ccompiler import new_compiler
    from distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    compiler.set_include_dirs(cmd.include_dirs)
    assert setup_py["_compiler_problem"](compiler) is None


@pytest.mark.parametrize("platform, words", [
    ("linux", ["apt-get install gcc python3-dev", "dnf install gcc python3-devel"]),
    ("darwin", ["xcode-select --install"]),
    ("win32", ["Microsoft C++ Build Tools", "Desktop development with C++"]),
    ("freebsd14", ["a C compiler (gcc or clang)"]),
])
def test_the_message_says_how_to_get_a_compiler_on_each_os(setup_py, platform, words):
    msg = setup_py["_no_compiler_message"]("command 'cc' failed", platform)
    for w in words:
        assert w in msg, (platform, w)
    others = {"linux": "apt-get", "darwin": "xcode-select", "win32": "Build Tools"}
    for p, w in others.items():
        if not platform.startswith(p):
            assert w not in msg, (platform, w)


def test_the_message_states_what_the_wheel_configuration_builds(setup_py):
    # the versions and architectures the message names are those of [tool.cibuildwheel]
    try:
        import tomllib
    except ImportError:     # Python < 3.11
        tomllib = pytest.importorskip("tomli")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        cibw = tomllib.load(f)["tool"]["cibuildwheel"]
    minors = sorted(int(m) for m in re.findall(r"cp3(\d+)-\*", cibw["build"]))
    assert minors == list(range(minors[0], minors[-1] + 1))
    msg = " ".join(setup_py["_no_compiler_message"]("x", "linux").split())
    assert f"CPython 3.{minors[0]}-3.{minors[-1]} wheels" in msg
    for os_name, shown in (("linux", "Linux"), ("macos", "macOS"), ("windows", "Windows")):
        archs = cibw[os_name]["archs"]
        assert f"{shown} ({', '.join(archs)})" in msg, (os_name, archs)
