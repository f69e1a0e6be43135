"""Build mjfast's compiled core.

OpenMP is used when the compiler can build and run a tiny ``omp parallel``
program; otherwise the build warns and goes serial.  ``MJFAST_NO_OPENMP=1``
forces a serial build.  ``MJFAST_DEBUG=1`` makes a debug build: Cython's
bounds and initialisation checks on, compiled with -O0 -g (``.ci/debug-build``
builds one in a temporary copy and runs the test suite against it;
``mjfast._core.DEBUG_BUILD`` tells which build is loaded).

The extensions are listed in ``extensions`` below, one per concern
(docs/architecture.md, "The compiled modules"); each one another cimports
has its interface in src/mjfast/<name>.pxd, and the per-hand kernels are
inline .pxd files (src/handkernel/, src/fankernel/, src/wildkernel/)
compiled into each module that cimports them.  The fan
ids and keys (src/fankernel/fan_ids.pxd, src/include/fan_table.h) are generated here
from the tables in mjfast/rules/, so a fan's id and name are written once.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError, ExecError, PlatformError

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


def _compiler_problem(compiler):
    """None when ``compiler`` compiles a C file that includes Python.h, else
    what went wrong, in the build tools' words.  Run before the extensions,
    so that a machine without a compiler (or without Python's headers) gets
    one message saying so instead of a failed command deep in the build."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "mjfast_cc_probe.c")
        with open(src, "w") as f:
            f.write("#include <Python.h>\nint mjfast_cc_probe(void) { return 0; }\n")
        try:
            compiler.compile([src], output_dir=tmp)
        except (CompileError, ExecError, PlatformError, OSError) as e:
            # ExecError: the compiler cannot be run; PlatformError: MSVC not found
            return str(e) or type(e).__name__
    return None


# how to get a C compiler and Python's headers, by sys.platform
_GET_A_COMPILER = {
    "linux": ("Debian/Ubuntu: sudo apt-get install gcc python3-dev;  Fedora/RHEL: sudo dnf install gcc python3-devel;\n"
              "  Alpine: apk add build-base python3-dev;  Arch: sudo pacman -S gcc"),
    "darwin": "xcode-select --install   (Apple's Command Line Tools: clang and the macOS SDK)",
    "win32": ("the Microsoft C++ Build Tools, https://visualstudio.microsoft.com/visual-cpp-build-tools/\n"
              "  (workload \"Desktop development with C++\"), then open a new terminal"),
}


def _no_compiler_message(problem, platform=None):
    """The one message of a build that has no working C compiler."""
    platform = sys.platform if platform is None else platform
    key = "linux" if platform.startswith("linux") else platform
    how = _GET_A_COMPILER.get(key, "a C compiler (gcc or clang) and Python's development headers for your system")
    py = "cp%d%d" % sys.version_info[:2]
    return (
        "mjfast: building from source needs a C compiler and Python's headers; compiling a test file failed:\n"
        f"  {problem}\n"
        "Install them, then run the install again:\n"
        f"  {how}\n"
        "Or install a wheel, which needs no compiler: a file mjfast-<version>-" + py + "-...whl built for this\n"
        "platform, with `pip install mjfast-<version>-...whl`.  The wheel configuration ([tool.cibuildwheel]\n"
        "in pyproject.toml, run by .github/workflows/wheels.yml) builds CPython 3.9-3.14 wheels for Linux\n"
        "(x86_64, aarch64), macOS (x86_64, arm64) and Windows (AMD64); `python -m build --wheel` on a\n"
        "machine of the same kind that has a compiler builds one."
    )


class BuildExt(build_ext):
    def build_extensions(self):
        problem = _compiler_problem(self.compiler)
        if problem is not None:
            # a DistutilsError: setuptools prints it as one "error: ..." and exits 1
            raise PlatformError(_no_compiler_message(problem))
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

def _generate_fan_ids():
    """Write src/fankernel/fan_ids.pxd (the compiled fan ids, C enum constants)
    and src/include/fan_table.h (the key lists and tables, C data) of the MCR and
    two-player engines, read from the fan tables in mjfast/rules/ (mcr/table.py,
    two_player/table.py) so that the kernel and the tables cannot disagree."""
    import importlib.util
    import types

    here = os.path.dirname(os.path.abspath(__file__))
    rules_dir = os.path.join(here, "mjfast", "rules")
    packages = ("mjfast", "mjfast.rules", "mjfast.rules.mcr", "mjfast.rules.two_player")
    saved = {k: sys.modules.get(k) for k in packages + ("mjfast.rules.mcr.table", "mjfast.rules.two_player.table")}
    try:
        # the two table modules are plain data; load them without importing
        # the package (whose __init__ needs the extension being built)
        for name in packages:
            mod = types.ModuleType(name)
            mod.__path__ = [os.path.join(here, *name.split("."))]
            sys.modules[name] = mod
        tables = {}
        for name in ("mcr", "two_player"):
            spec = importlib.util.spec_from_file_location(f"mjfast.rules.{name}.table",
                                                          os.path.join(rules_dir, name, "table.py"))
            mod = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = mod
            spec.loader.exec_module(mod)
            tables[name] = mod
        mcr = tables["mcr"].MCR
        tp = tables["two_player"].TWO_PLAYER_TABLE
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    head = ["# Generated by setup.py from the fan tables in mjfast/rules/ (mcr/table.py,",
            "# two_player/table.py) at build time: do not edit."]
    assert list(mcr.ids) == list(range(1, len(mcr) + 1)), "MCR fan ids must run 1..N"
    assert list(tp.ids) == list(range(1, len(tp) + 1)), "two-player fan ids must run 1..N"
    # the kernel's C tables hold ids 0..83 (MCR) and 0..63 (two-player: one 64-bit mask word)
    assert max(mcr.ids) < 84 and max(tp.ids) < 64, "a fan table outgrew the kernel's C tables"
    # the ids, as C constants for the kernel (cimported: fankernel/fan_ids.pxd)
    ids = head + ["", "cdef enum:", "    # MCR: the ids of mjfast/rules/mcr/table.py"]
    ids += [f"    {f.key.upper()} = {f.id}" for f in mcr]
    ids += [f"    NFAN_TABLE = {max(mcr.ids) + 1}      # ids 0..{max(mcr.ids)}", "",
            "cdef enum:", "    # two-player: the ids of mjfast/rules/two_player/table.py"]
    ids += [f"    TP_{f.key.upper()} = {f.id}" for f in tp]
    ids += [f"    TP_NFAN = {max(tp.ids) + 1}      # ids 0..{max(tp.ids)}", ""]
    # the key lists and the tables by id as C data (src/include/fan_table.h):
    # mjfast._fans makes them Python tuples and loads the kernel's tables from them
    # when it starts, no Python module has to
    def c_keys(name, table):
        return ([f"static const char* const {name}[] = {{", "    0,"]
                + [f"    {json.dumps(f.key)}," for f in table] + ["};"])

    def c_row(values):
        return ", ".join(str(v) for v in values)

    # the MCR table as the kernel reads it: points, exclusion masks (bit j of
    # row i: fan i excludes fan j), the fans that demote Fully Concealed Hand
    # to Self-Drawn, by id
    n = max(mcr.ids) + 1
    points, masks, demote = [0] * n, [[0, 0] for _ in range(n)], [0] * n
    for f in mcr:
        points[f.id] = f.points
        for key in f.excludes:
            j = mcr[key].id
            masks[f.id][j // 64] |= 1 << (j % 64)
        demote[f.id] = int(f.key in tables["mcr"].DEMOTES_FULLY_CONCEALED_HAND)
    # the two-player table likewise (points, one exclusion mask word per id)
    tn = max(tp.ids) + 1
    tpoints, tmasks = [0] * tn, [0] * tn
    for f in tp:
        tpoints[f.id] = f.points
        for key in f.excludes:
            tmasks[f.id] |= 1 << tp[key].id
    c = ["/* fan_table.h: the fan tables of the MCR and two-player engines by id (keys,",
         "   points, exclusion masks: bit j of row i, fan i excludes fan j; the MCR fans",
         "   that demote Fully Concealed Hand to Self-Drawn).  Generated by setup.py",
         "   from the fan tables in mjfast/rules/ (mcr/table.py, two_player/table.py)",
         "   at build time: do not edit. */",
         "#ifndef MJFAST_FAN_TABLE_H",
         "#define MJFAST_FAN_TABLE_H",
         "",
         "#include <stdint.h>",
         "",
         f"#define MJ_MCR_NFAN {n}",
         f"#define MJ_TP_NFAN {tn}", ""]
    c += c_keys("mj_mcr_fan_keys", mcr)
    c += [f"static const int16_t mj_mcr_points[] = {{{c_row(points)}}};",
          "static const uint64_t mj_mcr_masks[][2] = {"
          + ", ".join(f"{{{lo:#x}ULL, {hi:#x}ULL}}" for lo, hi in masks) + "};",
          f"static const uint8_t mj_mcr_demote[] = {{{c_row(demote)}}};", ""]
    c += c_keys("mj_tp_fan_keys", tp)
    c += [f"static const int16_t mj_tp_points[] = {{{c_row(tpoints)}}};",
          "static const uint64_t mj_tp_masks[] = {" + ", ".join(f"{m:#x}ULL" for m in tmasks) + "};",
          "", "#endif /* MJFAST_FAN_TABLE_H */", ""]
    _write_if_changed(os.path.join(here, "src", "fankernel", "fan_ids.pxd"), "\n".join(ids))
    _write_if_changed(os.path.join(here, "src", "include", "fan_table.h"), "\n".join(c))


def _write_if_changed(path, text):
    """Write a generated file only when it changes (the build would
    otherwise recompile every time)."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _generate_flag_bits():
    """Write src/fankernel/flag_bits.pxd (the context flags' bits, C enum
    constants W_<NAME> / RF_<NAME>) from mjfast/spec/flags.py, the one
    declaration of the flags (plain data: loaded by path, the package is not
    imported)."""
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("_mjfast_spec_flags",
                                                  os.path.join(here, "mjfast", "spec", "flags.py"))
    flags = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(flags)
    lines = ["# Generated by setup.py from mjfast/spec/flags.py at build time: do not edit.", ""]
    for byte, what in ((flags.WIN, "the win flags (the packed hand's `flags` byte, HandBatch.flags)"),
                       (flags.RULE, "the flags of other rule sets (HandBatch.rule_flags)")):
        lines += ["cdef enum:", f"    # {what}"]
        for f in flags.FLAGS.values():
            if f.byte == byte:
                assert f.bit in (1, 2, 4, 8, 16, 32, 64, 128), f"flag {f.name}: a bit of one byte"
                lines.append(f"    {flags.c_name(f)} = {f.bit}")
        used = [f.bit for f in flags.FLAGS.values() if f.byte == byte]
        assert len(set(used)) == len(used), f"two {byte} flags share a bit"
        lines.append("")
    _write_if_changed(os.path.join(here, "src", "fankernel", "flag_bits.pxd"), "\n".join(lines))


#: The keys of a hand record besides the flags, in the reader's index order
#: (docs/notation.md, "Hand records"), and the context keys no batch column
#: holds (the Python validator reads such a record and names the key).
_RECORD_KEYS = ("hand", "id", "rules", "seat_wind", "round_wind", "flowers")
_RECORD_UNREAD = ("wildcards", "wildcard_tiles", "wild_fifth")


def _record_key_switch(keys):
    """C statements returning the index of a key (``keys``: {name: index})
    from its bytes ``s`` and length ``m``: a switch on the length, then on the
    first byte among keys of one length, then one memcmp; -1 for any other."""
    by_len = {}
    for name, k in keys.items():
        by_len.setdefault(len(name), []).append((name, k))
    out = ["    switch (m) {"]
    for n in sorted(by_len):
        group = sorted(by_len[n])
        firsts = [name[0] for name, _ in group]
        if len(group) == 1:
            name, k = group[0]
            out.append(f'    case {n}: return memcmp(s, "{name}", {n}) == 0 ? {k} : -1;')
            continue
        out.append(f"    case {n}:")
        if len(set(firsts)) == len(firsts):
            out.append("        switch (s[0]) {")
            for name, k in group:
                out.append(f"        case '{name[0]}': return memcmp(s, \"{name}\", {n}) == 0 ? {k} : -1;")
            out.append("        default: return -1;")
            out.append("        }")
        else:
            for name, k in group:
                out.append(f'        if (memcmp(s, "{name}", {n}) == 0) return {k};')
            out.append("        return -1;")
    out += ["    default: return -1;", "    }"]
    return out


def _generate_record_keys():
    """Write src/include/record_keys.h: the index of a hand record's key for
    the compiled record reader (src/_records.pyx), its flag keys read from
    mjfast/spec/flags.py (the win flags, and the rule flags the compiled
    two-player kernel reads; the other rule flags are left to the Python
    validator, as unread context keys)."""
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("_mjfast_spec_flags",
                                                  os.path.join(here, "mjfast", "spec", "flags.py"))
    flags = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(flags)
    win = [f for f in flags.FLAGS.values() if f.byte == flags.WIN]
    rule = [f for f in flags.FLAGS.values() if f.byte == flags.RULE and "two_player" in f.read_by]
    # the reader packs flag j of a byte as bit 1 << j (src/_records.pyx)
    for group in (win, rule):
        assert sorted(f.bit for f in group) == [1 << j for j in range(len(group))], \
            "the record reader's flags of a byte must be its low bits"
    k_flag0 = len(_RECORD_KEYS)
    k_rflag0 = k_flag0 + len(win)
    n_keys = k_rflag0 + len(rule)
    keys = {name: j for j, name in enumerate(_RECORD_KEYS)}
    keys.update({f.name: k_flag0 + f.bit.bit_length() - 1 for f in win})
    keys.update({f.name: k_rflag0 + f.bit.bit_length() - 1 for f in rule})
    unread = list(_RECORD_UNREAD) + [f.name for f in flags.FLAGS.values() if f.byte == flags.RULE and f not in rule]
    keys.update({name: n_keys for name in unread})
    lines = ["/* record_keys.h: the index of a hand record's key, for the compiled record",
             "   reader (src/_records.pyx).  Generated by setup.py from mjfast/spec/flags.py",
             "   (the flag keys) at build time: do not edit.  C because it is a switch on",
             "   the key's length and first byte then one memcmp, on the key's UTF-8 bytes:",
             "   the cheapest test for the dozen-odd keys of every record of a",
             "   million-record file. */",
             "#ifndef MJFAST_RECORD_KEYS_H",
             "#define MJFAST_RECORD_KEYS_H",
             "",
             "#include <Python.h>",
             "#include <string.h>",
             "",
             "/* the indexes: the keys of _RECORD_KEYS (setup.py), the win flags from",
             "   MJ_K_FLAG0 and the rule flags the reader packs from MJ_K_RFLAG0 (flag j",
             "   of a byte is its bit 1 << j), MJ_N_KEYS of them; MJ_K_UNREAD for a",
             "   context key no batch column holds */",
             "enum {"]
    lines += [f"    MJ_K_{name.upper()} = {j}," for j, name in enumerate(_RECORD_KEYS)]
    lines += [f"    MJ_K_FLAG0 = {k_flag0},", f"    MJ_N_FLAGS = {len(win)},",
              f"    MJ_K_RFLAG0 = {k_rflag0},", f"    MJ_N_RFLAGS = {len(rule)},",
              f"    MJ_N_KEYS = {n_keys},", f"    MJ_K_UNREAD = {n_keys}", "};", "",
              "/* the index of a record key, MJ_K_UNREAD for a context key that batch",
              "   columns cannot hold, -1 for any other */",
              "static inline int mj_record_key(const unsigned char* s, Py_ssize_t m) {"]
    lines += _record_key_switch(keys)
    lines += ["}", "", "#endif /* MJFAST_RECORD_KEYS_H */", ""]
    _write_if_changed(os.path.join(here, "src", "include", "record_keys.h"), "\n".join(lines))


def _generate_error_codes():
    """Write src/error_codes.pxd (cimported by the compiled guards,
    src/handkernel/guards.pxd, and the modules whose checks return codes):
    the error codes of mjfast/spec/errors.py as C constants ERR_<NAME> (plain
    data: loaded by path).  The messages a raising guard needs it reads from
    mjfast.spec.errors on its error path."""
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("_mjfast_spec_errors",
                                                  os.path.join(here, "mjfast", "spec", "errors.py"))
    errors = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(errors)
    names = [c.name for c in errors.CODES]
    assert len(set(names)) == len(names), "an error code name is used twice"
    lines = ["# Generated by setup.py from mjfast/spec/errors.py at build time: do not edit.", ""]
    families = []
    for c in errors.CODES:
        if c.family not in families:
            families.append(c.family)
    for fam in families:
        lines += ["cdef enum:", f"    # family {fam!r}"]
        lines += [f"    ERR_{c.name} = {c.value}" for c in errors.CODES if c.family == fam]
        lines.append("")
    _write_if_changed(os.path.join(here, "src", "error_codes.pxd"), "\n".join(lines))


_generate_fan_ids()
_generate_flag_bits()
_generate_record_keys()
_generate_error_codes()

# the C helpers of the extensions (src/include/): a changed header rebuilds them
HEADERS = sorted(glob.glob(os.path.join("src", "include", "**", "*.h"), recursive=True))

def _extension(name):
    """mjfast.<name> from src/<name>.pyx (its interface, when other modules
    cimport it: src/mjfast/<name>.pxd)."""
    return Extension(
        f"mjfast.{name}",
        [f"src/{name}.pyx"],
        include_dirs=[np.get_include(), "src", "src/include"],
        depends=HEADERS,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")] + ([("MJFAST_DEBUG_BUILD", "1")] if DEBUG else []),
    )


# the compiled modules, in the order of the data flow (docs/architecture.md,
# "The compiled modules")
extensions = [_extension(name) for name in (
    "_tablecache",      # the lookup tables on disk
    "_tables",          # the lookup tables: built once, published to the kernels
    "_notation",        # the notation parser
    "_records",         # hand records in, JSONL scores out (cimports _notation)
    "_core",            # analysis: win check, waits, shanten
    "_wild",            # wildcard win / shanten / waits
    "_targets",         # fan-aware distances
    "_decide",          # decisions: useful tiles, the discard ranking
    "_fans",            # scoring: the fan kernel's entry points, settlement
    "_args",            # the argument checks of the game modules' entry points
    "_machine",         # the game's state machine: the rules (its interface: src/mjfast/_machine.pxd)
    "_engine",          # the game engine's Python face (its interface: src/mjfast/_engine.pxd)
    "_seat",            # one seat's view of a game over the engine
    "_game",            # compiled self-play over the engine (FastGame)
    "_textlog",         # the text archive's tokenizer and pull reader (its interface: src/mjfast/_textlog.pxd)
    "_replay",          # the replay driver over the engine (cimports _textlog)
)]


def _drop_stale_c():
    """Remove src/<name>.c when the module's own interface (src/mjfast/<name>.pxd)
    is newer: cythonize follows a module's cimports but looks for its own .pxd
    only beside the .pyx, so an edit to the interface alone would not rebuild
    the module that implements it."""
    here = os.path.dirname(os.path.abspath(__file__))
    for ext in extensions:
        name = ext.name.split(".")[-1]
        pxd = os.path.join(here, "src", "mjfast", name + ".pxd")
        c_file = os.path.join(here, "src", name + ".c")
        if os.path.exists(pxd) and os.path.exists(c_file) and os.path.getmtime(pxd) > os.path.getmtime(c_file):
            os.remove(c_file)


_drop_stale_c()
setup(
    ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src"], force=FORCE),
    cmdclass={"build_ext": BuildExt},
)
