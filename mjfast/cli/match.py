"""The ``mjfast match`` subcommand's arguments (the match itself is imported
only when the command runs, so the other commands start as fast as before)."""
import sys

from .args import RulesArgError, add_rules, positive_int, positive_seconds, rules_from_args

MATCH_HELP = """Four bots through the game engine under the platform's rules: built-in
bots (mjfast:sample, mjfast:baseline) answer in process, any other BOT is a
command line run as a subprocess with the Botzone interaction (JSON or
simple, keep-running honoured), the per-turn time limit and the error rule.
The bots rotate over the seats on the same walls (4 games per wall set)."""


#: why --rules takes MCR only here (messages, --help)
_WHY = "the game engine plays the platform's MCR rules"


def _run(args):
    try:
        rules_from_args(args, "mjfast match", ("mcr",), options=False, why=_WHY)
    except RulesArgError as exc:
        print(f"mjfast: error: {exc}", file=sys.stderr)
        return 2
    from ..botzone.match import main   # start-up: loaded when the command runs
    return main(args)


def register(sub):
    """Register ``mjfast match`` on the CLI's subparsers."""
    p = sub.add_parser("match", help="play four bots against each other through the game engine",
                       description=MATCH_HELP)
    p.add_argument("bots", nargs=4, metavar="BOT",
                   help="mjfast:sample, mjfast:baseline, or a command line (quote it), e.g. 'python -m mjfast.botzone'")
    p.add_argument("--games", type=positive_int, default=4, help="games to play (default 4: one wall set, each bot in each seat)")
    p.add_argument("--seed", type=int, default=0, help="seed of the walls (default 0)")
    p.add_argument("--mode", choices=("json", "simple"), default="json",
                   help="interaction for command-line bots (default json)")
    p.add_argument("--time-limit", type=positive_seconds, default=6.0, metavar="SEC",
                   help="seconds per turn for command-line bots, a number > 0 (first turn: twice); "
                        "default 6 (the platform's Python limit)")
    p.add_argument("--out", help="write the games to this file in the text archive format (checked "
                                 "before the first game)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (there is one by games on a terminal, with tqdm installed)")
    add_rules(p, ("mcr",), _WHY)
    p.set_defaults(func=_run)
    return p


