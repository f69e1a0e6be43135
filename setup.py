"""Build mjfast's compiled core.

OpenMP is used when the compiler can build and run a tiny ``omp parallel``
program; otherwise the build warns and goes serial.  ``MJFAST_NO_OPENMP=1``
forces a serial build.  ``MJFAST_DEBUG=1`` makes a debug build: Cython's
bounds and initialisation checks on, compiled with -O0 -g (``.ci/debug-build``
builds one in a temporary copy and runs the test suite against it;
``mjfast._core.DEBUG_BUILD`` tells which build is loaded).
"""
import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("MJFAST_DEBUG") == "1"


def _mode_changed():
    """True when the last build in this tree was of the other kind (debug /
    release).  Neither cythonize nor build_ext looks at directives or flags,
    only at file times: without this a switch would reuse the old C and .so."""
    stamp = os.path.join("build", "mjfast-build-mode")
    mode = "debug" if DEBUG else "release"
    try:
        with open(stamp) as f:
            old = f.read().strip()
    except OSError:
        old = None
    os.makedirs("build", exist_ok=True)
    with open(stamp, "w") as f:
        f.write(mode)
    return old is not None and old != mode


FORCE = _mode_changed()


def _openmp_flags(compiler):
    """Compile and run a tiny OpenMP program; return (cflags, ldflags) or None."""
    if os.environ.get("MJFAST_NO_OPENMP") == "1":
        return None
    if compiler.compiler_type == "msvc":
        return (["/openmp"], [])
    if sys.platform == "darwin":
        candidates = [(["-Xpreprocessor", "-fopenmp"], ["-lomp"]), (["-fopenmp"], ["-fopenmp"])]
    else:
        candidates = [(["-fopenmp"], ["-fopenmp"])]
    code = textwrap.dedent(
        """
        #include <omp.h>
        #include <stdio.h>
        int main(void) { int n = 0;
        #pragma omp parallel reduction(+:n)
          n += 1;
          printf("%d", n > 0); return 0; }
        """
    )
    for cflags, ldflags in candidates:
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "omp_test.c")
            with open(src, "w") as f:
                f.write(code)
            try:
                objs = compiler.compile([src], output_dir=tmp, extra_postargs=cflags)
                exe = os.path.join(tmp, "omp_test")
                compiler.link_executable(objs, exe, extra_postargs=ldflags)
                out = subprocess.run([exe], capture_output=True, text=True, timeout=30)
                if out.returncode == 0 and out.stdout.strip() == "1":
                    return (cflags, ldflags)
            except Exception:  # noqa: BLE001 - any failure means "no OpenMP"
                continue
    return None


class BuildExt(build_ext):
    def build_extensions(self):
        if FORCE:
            self.force = True
        flags = _openmp_flags(self.compiler)
        if flags is None:
            print("*" * 70 + "\nmjfast: building WITHOUT OpenMP: batch calls run on one core\n" + "*" * 70)
        for ext in self.extensions:
            if self.compiler.compiler_type != "msvc":
                # the last -O wins over Python's own CFLAGS
                ext.extra_compile_args += ["-O0", "-g"] if DEBUG else ["-O3"]
            if flags:
                ext.extra_compile_args += flags[0]
                ext.extra_link_args += flags[1]
        super().build_extensions()


directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
    "linetrace": False,
}

extensions = [
    Extension(
        "mjfast._core",
        ["src/_core.pyx"],
        include_dirs=[np.get_include(), "src"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")] + ([("MJFAST_DEBUG_BUILD", "1")] if DEBUG else []),
    ),
    # wildcard win / shanten / waits (its own module: reads _core's distance tables)
    Extension(
        "mjfast._wild",
        ["src/_wild.pyx"],
        include_dirs=[np.get_include(), "src"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
    # the compiled self-play engine of mjfast.game (its own module: the scorer stays in _core)
    Extension(
        "mjfast._game",
        ["src/_game.pyx"],
        include_dirs=[np.get_include(), "src"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
]

setup(
    ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src"], force=FORCE),
    cmdclass={"build_ext": BuildExt},
)
