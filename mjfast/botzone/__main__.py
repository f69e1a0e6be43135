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

import json
import sys

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
_PROG = "python -m mjfast.botzone"
#: why --rules takes MCR only here (messages, --help)
_WHY = "the bot plays the Botzone platform's MCR rules, which its judge enforces"


def _is_request(line: str) -> bool:
    # requests start with their type 0-3; data / globaldata lines (empty for
    # this bot, which stores none) are skipped in keep-running mode
    return len(line) >= 1 and line[0] in "0123" and (len(line) == 1 or line[1] == " ")


def _answer(bot, request):
    try:
        return bot.respond(request), ""
    except Exception as exc:  # noqa: BLE001 - answer something rather than crash the turn
        return "PASS", f"error: {type(exc).__name__}: {exc}"


def _replay(bot, requests, responses):
    """Rebuild the bot's state from a full history; answer the last request."""
    bot.reset()
    st = bot.state
    try:
        for i, r in enumerate(requests[:-1]):
            st.update(r, responses[i] if i < len(responses) else None)
    except Exception as exc:  # noqa: BLE001
        return "PASS", f"error replaying the history: {type(exc).__name__}: {exc}"
    return _answer(bot, requests[-1])


def run(stdin=None, stdout=None, bot_name="sample", once=False) -> int:
    from .bots import make_bot
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    bot = make_bot(bot_name)
    line = stdin.readline()
    while line and not line.strip():
        line = stdin.readline()
    if not line:
        return 0
    line = line.strip()
    mode = "json" if line.startswith("{") else "simple"
    if mode == "json":
        obj = json.loads(line)
        resp, debug = _replay(bot, list(obj.get("requests") or []), list(obj.get("responses") or []))
        out = json.dumps({"response": resp, "debug": debug} if debug else {"response": resp})
    else:
        n = int(line)
        lines = [stdin.readline().rstrip("\r\n") for _ in range(2 * n - 1)]
        resp, debug = _replay(bot, lines[0::2], lines[1::2])
        out = resp + ("\n" + debug if debug else "")
    while True:
        if once:
            stdout.write(out + "\n")
            stdout.flush()
            return 0
        stdout.write(out + "\n" + KEEP_RUNNING + "\n")
        stdout.flush()
        # the next turn: just the new request
        req = None
        while req is None:
            line = stdin.readline()
            if not line:
                return 0
            s = line.strip()
            if not s:
                continue
            if mode == "json":
                if s.startswith('"'):
                    req = json.loads(s)
                elif s.startswith("{"):
                    obj = json.loads(s)
                    reqs = list(obj.get("requests") or [])
                    if len(reqs) == 1 and bot.state.turn:
                        req = reqs[0]
                    else:                      # a full history after all: rebuild
                        resp, debug = _replay(bot, reqs, list(obj.get("responses") or []))
                        out = json.dumps({"response": resp, "debug": debug} if debug else {"response": resp})
                        break
                elif _is_request(s):
                    req = s
            elif _is_request(s):
                req = s
        else:
            resp, debug = _answer(bot, req)
            if mode == "json":
                out = json.dumps({"response": resp, "debug": debug} if debug else {"response": resp})
            else:
                out = resp + ("\n" + debug if debug else "")


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog=_PROG, description="The mjfast MCR bot for Botzone.")
    ap.add_argument("--bot", default="sample", help="sample (default) or baseline")
    ap.add_argument("--once", action="store_true", help="answer one turn and exit (no keep-running)")
    from ..cli_args import RulesArgError, add_rules, rules_from_args
    add_rules(ap, ("mcr",), _WHY)
    a = ap.parse_args(argv)
    try:
        rules_from_args(a, _PROG, ("mcr",), options=False, why=_WHY)
    except RulesArgError as exc:
        print(f"{_PROG}: error: {exc}", file=sys.stderr)
        return 2
    return run(bot_name=a.bot, once=a.once)


if __name__ == "__main__":
    sys.exit(main())
