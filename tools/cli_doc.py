"""Run the examples of docs/cli.md and write their real output back.

    python tools/cli_doc.py          # rewrite docs/cli.md in place
    python tools/cli_doc.py --check  # exit 1 if any example's output differs

An example is a ```console block: lines starting with ``$ `` are commands
(run by bash from the repository root, ``mjfast`` meaning this checkout's
``python -m mjfast``); the lines up to the next command are its output,
stdout and stderr together.  tests/test_docs.py runs the check.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, *"docs/cli.md".split("/"))
_BLOCK = re.compile(r"(```console\n)(.*?)(```)", re.S)


def run(command: str) -> str:
    """The output (stdout + stderr) of one documented command."""
    py = f'"{sys.executable}" -m mjfast'
    cmd = re.sub(r"(^|\|\s*)mjfast\b", lambda m: m.group(1) + py, command)
    env = dict(os.environ, COLUMNS="80", PYTHONPATH=ROOT)
    out = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=120)
    return out.stdout


def examples(text: str):
    """(command, documented output) for every command of every console block."""
    for m in _BLOCK.finditer(text):
        cmd, out = None, []
        for line in m.group(2).splitlines():
            if line.startswith("$ "):
                if cmd is not None:
                    yield cmd, "\n".join(out)
                cmd, out = line[2:], []
            else:
                out.append(line)
        if cmd is not None:
            yield cmd, "\n".join(out)


def render(text: str) -> str:
    def block(m):
        body = []
        for cmd, _ in examples(m.group(0)):
            body.append("$ " + cmd)
            got = run(cmd).rstrip("\n")
            if got:
                body.append(got)
        return m.group(1) + "\n".join(body) + "\n" + m.group(3)

    return _BLOCK.sub(block, text)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    new = render(text)
    if "--check" in argv:
        if new != text:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                       "docs/cli.md", "actual output"))
            return 1
        return 0
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
