# The compiled rule-set engines, by id (the layout note is in mcr_score.pxd).
# A rule set in mjfast/rules/ names the engine that scores it; several rule
# sets may share one engine and differ by its option bits (mcr and dazhong:
# PHand.variant).  Adding an engine: its <name>_fans.pxd, its ids in setup.py's
# generator, an id here and its entry in ENGINES (src/_fans.pyx).

cdef enum:
    ENGINE_MCR = 0          # rule sets mcr, dazhong
    ENGINE_TWO_PLAYER = 1   # rule set two_player
    N_ENGINES = 2
