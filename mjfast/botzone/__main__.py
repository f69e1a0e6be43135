"""``python -m mjfast.botzone``: the sample bot as a Botzone program.

The interaction is read from the first line of input: a line starting with
``{`` is the JSON interaction, a number the simple one.  After each answer the
bot prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<`` and waits for the next
request (keep-running); when the judge starts a new process each turn
instead, the input ends and the process exits.  See docs/botzone.md.

Options: ``--bot sample|baseline``; ``--once`` answers one turn and exits
without the keep-running line; ``--rules`` / ``--rule-option`` as on every
mjfast command, where only MCR with its default options is accepted (the
bot plays the platform's rules, which the judge enforces); any other rule set
exits with status 2 and a message naming it.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys

from ..cli.args import RulesArgError, add_rules, rules_from_args
from .bots import BOTS, make_bot

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
_PROG = "python -m mjfast.botzone"
#: why --rules takes MCR only here (messages, --help)
_WHY = "the bot plays the Botzone platform's MCR rules, which its judge enforces"
#: the most turns a simple-interaction header may announce: a seat hears of
#: every draw, discard and claim of a game, far fewer than this
MAX_TURNS = 2000


class _BadInput(ValueError):
    """Input that is not the interaction: answered PASS with the reason."""


def _is_request(line: str) -> bool:
    # requests start with their type 0-3; data / globaldata lines (empty for
    # this bot, which stores none) are skipped in keep-running mode
    return len(line) >= 1 and line[0] in "0123" and (len(line) == 1 or line[1] == " ")


def _answer(bot, request):
    try:
        return bot.respond(request), ""
    except Exception as exc:  # noqa: BLE001 - answer something rather than crash the turn
        return "PASS", f"error: {type(exc).__name__}: {exc}"


def _one_line(text: str) -> str:
    """text as one printable ASCII line (it may quote the judge's bytes)."""
    text = " ".join(text.split()).encode("ascii", "backslashreplace").decode("ascii")
    return "".join(c if " " <= c <= "~" else "?" for c in text)


def _history(obj):
    """(requests, responses) of a JSON interaction object; _BadInput if it is not one."""
    if not isinstance(obj, dict):
        raise _BadInput(f"the JSON input is {type(obj).__name__}, not an object with 'requests'")
    reqs, resps = obj.get("requests"), obj.get("responses")
    if resps is None:
        resps = []
    if not isinstance(reqs, list) or not reqs or not all(isinstance(r, str) for r in reqs):
        raise _BadInput("'requests' must be a non-empty list of request strings")
    if not isinstance(resps, list) or not all(isinstance(r, str) for r in resps):
        raise _BadInput("'responses' must be a list of response strings")
    return reqs, resps


def _replay(bot, requests, responses):
    """Rebuild the bot's state from a full history; answer the last request."""
    if not requests:
        return "PASS", "error: no request to answer"
    bot.reset()
    st = bot.state
    try:
        for i, r in enumerate(requests[:-1]):
            st.update(r, responses[i] if i < len(responses) else None)
    except Exception as exc:  # noqa: BLE001
        return "PASS", f"error: replaying the history: {type(exc).__name__}: {exc}"
    return _answer(bot, requests[-1])


def _json_first(bot, line):
    try:
        reqs, resps = _history(json.loads(line))
    except (ValueError, RecursionError) as exc:   # json.JSONDecodeError and _BadInput are ValueErrors
        return "PASS", f"error: bad JSON input: {exc}"
    return _replay(bot, reqs, resps)


def _simple_first(bot, line, stdin):
    # the turn number n, then 2n - 1 lines: the requests and this seat's answers
    if not (line.isascii() and line.isdigit()) or not 1 <= int(line) <= MAX_TURNS:
        return "PASS", f"error: bad simple header {line[:40]!r}: the turn number 1-{MAX_TURNS}"
    lines = []
    for _ in range(2 * int(line) - 1):
        x = stdin.readline()
        if not x:
            break
        lines.append(x.rstrip("\r\n"))
    if len(lines) < 2 * int(line) - 1:
        return "PASS", f"error: the input ended after {len(lines)} of the {2 * int(line) - 1} lines of turn {line}"
    return _replay(bot, lines[0::2], lines[1::2])


def _format(mode, resp, debug):
    """The answer as the interaction writes it: one JSON line, or the
    response line (and a debug line); the reason of an error also goes to
    stderr."""
    if debug:
        debug = _one_line(debug)
        print(f"{_PROG}: {debug}", file=sys.stderr)
    if mode == "json":
        return json.dumps({"response": resp, "debug": debug} if debug else {"response": resp})
    return resp + ("\n" + debug if debug else "")


def run(stdin=None, stdout=None, bot_name="sample", once=False) -> int:
    """Answer the interaction on ``stdin``; the exit status: 0, or 1 when
    some turn was answered PASS for an error (input that is not the
    interaction, a request the state refuses, an internal error: each has
    its line on stderr), or when the input holds no request at all."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    bot = make_bot(bot_name)
    line = stdin.readline()
    while line and not line.strip():
        line = stdin.readline()
    if not line:
        print(f"{_PROG}: error: no request: the input is empty", file=sys.stderr)
        return 1
    line = line.strip()
    mode = "json" if line.startswith("{") else "simple"
    failed = False

    def answer(resp, debug):
        nonlocal failed
        failed = failed or bool(debug)
        return _format(mode, resp, debug)
    if mode == "json":
        out = answer(*_json_first(bot, line))
    else:
        out = answer(*_simple_first(bot, line, stdin))
    while True:
        if once:
            stdout.write(out + "\n")
            stdout.flush()
            return 1 if failed else 0
        stdout.write(out + "\n" + KEEP_RUNNING + "\n")
        stdout.flush()
        # the next turn: just the new request
        req = None
        while req is None:
            line = stdin.readline()
            if not line:
                return 1 if failed else 0
            s = line.strip()
            if not s:
                continue
            if mode == "json":
                if s.startswith('"'):
                    try:
                        req = json.loads(s)
                    except (ValueError, RecursionError) as exc:
                        req = _BadInput(f"bad JSON request {s[:60]!r}: {exc}")
                    if not isinstance(req, (str, _BadInput)):
                        req = _BadInput(f"bad JSON request {s[:60]!r}: not a string")
                elif s.startswith("{"):
                    try:
                        reqs, resps = _history(json.loads(s))
                    except (ValueError, RecursionError) as exc:
                        req = _BadInput(f"bad JSON input: {exc}")
                        break
                    if len(reqs) == 1 and bot.state.turn:
                        req = reqs[0]
                    else:                      # a full history after all: rebuild
                        out = answer(*_replay(bot, reqs, resps))
                        break
                elif _is_request(s):
                    req = s
            elif _is_request(s):
                req = s
        if req is not None:
            if isinstance(req, _BadInput):
                out = answer("PASS", f"error: {req}")
            else:
                out = answer(*_answer(bot, req))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog=_PROG, description="The mjfast MCR bot for Botzone.")
    ap.add_argument("--bot", default="sample", help="sample (default) or baseline")
    ap.add_argument("--once", action="store_true", help="answer one turn and exit (no keep-running)")
    add_rules(ap, ("mcr",), _WHY)
    a = ap.parse_args(argv)
    try:
        rules_from_args(a, _PROG, ("mcr",), options=False, why=_WHY)
    except RulesArgError as exc:
        print(f"{_PROG}: error: {exc}", file=sys.stderr)
        return 2
    if a.bot not in BOTS:
        print(f"{_PROG}: error: --bot {a.bot!r}: no such bot; the bots are {', '.join(sorted(BOTS))}",
              file=sys.stderr)
        return 2
    if sys.stdin is None or sys.stdout is None:
        print(f"{_PROG}: error: standard input or output is closed", file=sys.stderr)
        return 2
    # the judge's input is read as UTF-8 whatever the locale; a byte that is
    # not UTF-8 is a bad request, not a crash of the program
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace") \
        if hasattr(sys.stdin, "buffer") else sys.stdin
    try:
        return run(stdin=stdin, bot_name=a.bot, once=a.once)
    except KeyboardInterrupt:
        print(f"{_PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of the answers went away: the game is over for this
        # program.  stdout goes to /dev/null, so that the interpreter's last
        # flush does not report the closed pipe.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, AttributeError, ValueError):
            pass
        return 0


if __name__ == "__main__":
    sys.exit(main())
