"""Test vectors of mcr-rules.md section 13 (output of the pinned reference).

Each entry: (hand, kwargs, expected {en_name: (points_each, count)}, total).
``hand`` is the spec's hand with the spaces removed (the last tile is the
winning tile); ``kwargs`` are the record fields that differ from the
defaults (discard win, seat East, round East, no flowers).  The spec's
spaced form is kept as a comment.
"""

VECTORS = [
    # 234s 567s 234p 567p 5m 5m
    ('234s567s234p567p5m5m', {},
     {'Concealed Hand': (2, 1), 'All Chows': (2, 1), 'All Simples': (2, 1), 'Mixed Double Chow': (1, 2), 'Short Straight': (1, 1), 'Single Wait': (1, 1)},
     10),
    # 234s 234p 234p 567p 5m 5m
    ('234s234p234p567p5m5m', {},
     {'Concealed Hand': (2, 1), 'All Chows': (2, 1), 'All Simples': (2, 1), 'Pure Double Chow': (1, 1), 'Mixed Double Chow': (1, 1), 'Short Straight': (1, 1), 'Single Wait': (1, 1)},
     10),
    # 123m 456m 789m 123p 5p 5p
    ('123m456m789m123p5p5p', {},
     {'Pure Straight': (16, 1), 'Concealed Hand': (2, 1), 'All Chows': (2, 1), 'Mixed Double Chow': (1, 1), 'One Voided Suit': (1, 1), 'Single Wait': (1, 1)},
     23),
    # 123m 456m 456p 789s 7m 7m
    ('123m456m456p789s7m7m', {},
     {'Mixed Straight': (8, 1), 'Concealed Hand': (2, 1), 'All Chows': (2, 1), 'Mixed Double Chow': (1, 1)},
     13),
    # 111m 222m 333m 456p 9s 9s
    ('111m222m333m456p9s9s', {},
     {'Pure Shifted Pungs': (24, 1), 'Three Concealed Pungs': (16, 1), 'Concealed Hand': (2, 1), 'Pung of Terminals or Honors': (1, 1), 'No Honors': (1, 1), 'Single Wait': (1, 1)},
     45),
    # 123m 123m 789m 789m 5m 5m
    ('123m123m789m789m5m5m', {},
     {'Pure Terminal Chows': (64, 1), 'Concealed Hand': (2, 1), 'Single Wait': (1, 1)},
     67),
    # 123m 789m 123p 789p 5s 5s
    ('123m789m123p789p5s5s', {},
     {'Three-Suited Terminal Chows': (16, 1), 'Concealed Hand': (2, 1), 'Single Wait': (1, 1)},
     19),
    # 123m 123m 123p 555s 9p 9p
    ('123m123m123p555s9p9p', {},
     {'Concealed Hand': (2, 1), 'Pure Double Chow': (1, 1), 'Mixed Double Chow': (1, 1), 'No Honors': (1, 1), 'Single Wait': (1, 1)},
     6),
    # 123m 789m 123p 789p 2s 2s
    ('123m789m123p789p2s2s', {},
     {'Concealed Hand': (2, 1), 'All Chows': (2, 1), 'Mixed Double Chow': (1, 2), 'Two Terminal Chows': (1, 1), 'Single Wait': (1, 1)},
     8),
    # 1112345678999m 5m
    ('1112345678999m5m', {},
     {'Nine Gates': (88, 1), 'Two Concealed Pungs': (2, 1), 'Pung of Terminals or Honors': (1, 1)},
     91),
    # 1112345678999m 1m
    ('1112345678999m1m', {},
     {'Nine Gates': (88, 1), 'Pure Straight': (16, 1), 'Tile Hog': (2, 1)},
     106),
    # 1112345678999p 6p
    ('1112345678999p6p', {'self_drawn': True},
     {'Nine Gates': (88, 1), 'Short Straight': (1, 1), 'Self-Drawn': (1, 1)},
     90),
    # 2233445566778m 8m
    ('2233445566778m8m', {},
     {'Seven Shifted Pairs': (88, 1), 'All Simples': (2, 1)},
     90),
    # 1122334455667p 7p
    ('1122334455667p7p', {'self_drawn': True},
     {'Seven Shifted Pairs': (88, 1), 'Self-Drawn': (1, 1)},
     89),
    # 19m 19s 19p ESWNCFP P
    ('19m19s19pESWNCFPP', {'self_drawn': True, 'last_tile': True},
     {'Thirteen Orphans': (88, 1), 'Last Tile Draw': (8, 1)},
     96),
    # 2222m 4455s 66778p 8p
    ('2222m4455s66778p8p', {},
     {'Seven Pairs': (24, 1), 'Tile Hog': (2, 1), 'All Simples': (2, 1)},
     28),
    # EE SS WW NN CC FF P P
    ('EESSWWNNCCFFPP', {'self_drawn': True},
     {'All Honors': (64, 1), 'Seven Pairs': (24, 1), 'Self-Drawn': (1, 1)},
     89),
    # [NNN] EEE SSS WWW 9p 9p
    ('[NNN]EEESSSWWW9p9p', {},
     {'Big Four Winds': (88, 1), 'All Terminals and Honors': (32, 1), 'Three Concealed Pungs': (16, 1), 'Half Flush': (6, 1), 'Single Wait': (1, 1)},
     143),
    # [EEE] [SSS] [WWW] [123m] N N
    ('[EEE][SSS][WWW][123m]NN', {},
     {'Little Four Winds': (64, 1), 'Half Flush': (6, 1), 'Melded Hand': (6, 1), 'Outside Hand': (4, 1), 'Prevalent Wind': (2, 1), 'Seat Wind': (2, 1)},
     84),
    # EEE SSS WWW 123m N N
    ('EEESSSWWW123mNN', {'seat_wind': 'S', 'round_wind': 'S'},
     {'Little Four Winds': (64, 1), 'Three Concealed Pungs': (16, 1), 'Half Flush': (6, 1), 'Outside Hand': (4, 1), 'Prevalent Wind': (2, 1), 'Seat Wind': (2, 1), 'Concealed Hand': (2, 1), 'Single Wait': (1, 1)},
     97),
    # CCC FF 123m 99s PPP 9s
    ('CCCFF123m99sPPP9s', {},
     {'Little Three Dragons': (64, 1), 'Outside Hand': (4, 1), 'Concealed Hand': (2, 1), 'Two Concealed Pungs': (2, 1), 'Pung of Terminals or Honors': (1, 1), 'One Voided Suit': (1, 1)},
     74),
    # EEE SSS CCC FFF P P
    ('EEESSSCCCFFFPP', {},
     {'Little Three Dragons': (64, 1), 'All Honors': (64, 1), 'Four Concealed Pungs': (64, 1), 'Prevalent Wind': (2, 1), 'Seat Wind': (2, 1), 'Single Wait': (1, 1)},
     197),
    # 223344s 666s 888s F F
    ('223344s666s888sFF', {'self_drawn': True},
     {'All Green': (88, 1), 'Fully Concealed Hand': (4, 1), 'Two Concealed Pungs': (2, 1), 'Pure Double Chow': (1, 1), 'Single Wait': (1, 1)},
     96),
    # 234s 234s 666s 888s 2s 2s
    ('234s234s666s888s2s2s', {},
     {'All Green': (88, 1), 'Full Flush': (24, 1), 'Concealed Hand': (2, 1), 'Tile Hog': (2, 1), 'Two Concealed Pungs': (2, 1), 'All Simples': (2, 1), 'Pure Double Chow': (1, 1)},
     121),
    # 111m 999m 111p 999p 9s 9s
    ('111m999m111p999p9s9s', {'self_drawn': True},
     {'All Terminals': (64, 1), 'Four Concealed Pungs': (64, 1), 'Single Wait': (1, 1), 'Self-Drawn': (1, 1)},
     130),
    # 111m 111p 111s 999m 9p 9p
    ('111m111p111s999m9p9p', {},
     {'All Terminals': (64, 1), 'Four Concealed Pungs': (64, 1), 'Triple Pung': (16, 1), 'Single Wait': (1, 1)},
     145),
    # 234m 234m 234m 234m 5p 5p
    ('234m234m234m234m5p5p', {},
     {'Quadruple Chow': (48, 1), 'Concealed Hand': (2, 1), 'All Chows': (2, 1), 'All Simples': (2, 1), 'One Voided Suit': (1, 1), 'Single Wait': (1, 1)},
     56),
    # 333m 444m 555m 666m 5p 5p
    ('333m444m555m666m5p5p', {},
     {'Four Concealed Pungs': (64, 1), 'Four Pure Shifted Pungs': (48, 1), 'All Simples': (2, 1), 'One Voided Suit': (1, 1), 'Single Wait': (1, 1)},
     116),
    # EEE SSS WWW 456m 9p 9p
    ('EEESSSWWW456m9p9p', {'round_wind': 'S'},
     {'Three Concealed Pungs': (16, 1), 'Big Three Winds': (12, 1), 'Prevalent Wind': (2, 1), 'Seat Wind': (2, 1), 'Concealed Hand': (2, 1), 'One Voided Suit': (1, 1), 'Single Wait': (1, 1)},
     36),
    # [1111m1] [2222p1] [3333s1] [EEEE1] N N
    ('[1111m1][2222p1][3333s1][EEEE1]NN', {},
     {'Four Kongs': (88, 1), 'Mixed Shifted Pungs': (8, 1), 'Melded Hand': (6, 1), 'Prevalent Wind': (2, 1), 'Seat Wind': (2, 1), 'Pung of Terminals or Honors': (1, 1)},
     107),
    # [1111m] [2222p] 345s 678s 9p 9p
    ('[1111m][2222p]345s678s9p9p', {},
     {'Two Concealed Kongs': (6, 1), 'Concealed Hand': (2, 1), 'Short Straight': (1, 1), 'Pung of Terminals or Honors': (1, 1), 'No Honors': (1, 1), 'Single Wait': (1, 1)},
     12),
    # [1111m] [2222p] 345s 666s 9p 9p
    ('[1111m][2222p]345s666s9p9p', {},
     {'Three Concealed Pungs': (16, 1), 'Two Concealed Kongs': (6, 1), 'Concealed Hand': (2, 1), 'Pung of Terminals or Honors': (1, 1), 'No Honors': (1, 1), 'Single Wait': (1, 1)},
     27),
    # [1111m] [2222p1] 345s 678s 9p 9p
    ('[1111m][2222p1]345s678s9p9p', {},
     {'Concealed Kong and Melded Kong': (5, 1), 'Short Straight': (1, 1), 'Pung of Terminals or Honors': (1, 1), 'No Honors': (1, 1), 'Single Wait': (1, 1)},
     9),
    # [1111m1] [2222p1] 345s 678s 9p 9p
    ('[1111m1][2222p1]345s678s9p9p', {},
     {'Two Melded Kongs': (4, 1), 'Short Straight': (1, 1), 'Pung of Terminals or Honors': (1, 1), 'No Honors': (1, 1), 'Single Wait': (1, 1)},
     8),
    # 111m 222p 33s 456m EE 3s
    ('111m222p33s456mEE3s', {'seat_wind': 'W', 'round_wind': 'S'},
     {'Mixed Shifted Pungs': (8, 1), 'Concealed Hand': (2, 1), 'Two Concealed Pungs': (2, 1), 'Pung of Terminals or Honors': (1, 1)},
     13),
    # 111m 222p 33s 456m EE 3s
    ('111m222p33s456mEE3s', {'self_drawn': True, 'seat_wind': 'W', 'round_wind': 'S'},
     {'Three Concealed Pungs': (16, 1), 'Mixed Shifted Pungs': (8, 1), 'Fully Concealed Hand': (4, 1), 'Pung of Terminals or Honors': (1, 1)},
     29),
    # 111m 222p 333s 45s EE 3s
    ('111m222p333s45sEE3s', {'seat_wind': 'W', 'round_wind': 'S'},
     {'Three Concealed Pungs': (16, 1), 'Mixed Shifted Pungs': (8, 1), 'Concealed Hand': (2, 1), 'Tile Hog': (2, 1), 'Pung of Terminals or Honors': (1, 1)},
     29),
    # [123m] 456m 789s 11p 23p 4p
    ('[123m]456m789s11p23p4p', {'fourth_tile': True, 'kong': True},
     {'Robbing The Kong': (8, 1), 'All Chows': (2, 1), 'Short Straight': (1, 1)},
     11),
    # [123m] 456m 789s 11p 23p 4p
    ('[123m]456m789s11p23p4p', {'self_drawn': True, 'kong': True},
     {'All Chows': (2, 1), 'Short Straight': (1, 1), 'Self-Drawn': (1, 1)},
     4),
    # [1111m1] 456m 789s 11p 23p 4p
    ('[1111m1]456m789s11p23p4p', {'self_drawn': True, 'kong': True},
     {'Out with Replacement Tile': (8, 1), 'Pung of Terminals or Honors': (1, 1), 'Melded Kong': (1, 1), 'No Honors': (1, 1)},
     11),
    # [123m] [345p] [999s] 78s 11p 9s
    ('[123m][345p][999s]78s11p9s', {'seat_wind': 'W', 'round_wind': 'S'},
     {'Last Tile': (4, 1), 'Tile Hog': (2, 1), 'Pung of Terminals or Honors': (1, 1), 'No Honors': (1, 1)},
     8),
    # [123m] [678s] [222p] 45p EE 3p
    ('[123m][678s][222p]45pEE3p', {'seat_wind': 'W', 'round_wind': 'S', 'flowers': 2},
     {'Chicken Hand': (8, 1), 'Flower Tiles': (1, 2)},
     10),
    # [123m] [456p] [789s] [EEE] N N
    ('[123m][456p][789s][EEE]NN', {'self_drawn': True},
     {'Mixed Straight': (8, 1), 'Prevalent Wind': (2, 1), 'Seat Wind': (2, 1), 'Single Wait': (1, 1), 'Self-Drawn': (1, 1)},
     14),
    # [1111m] 234m 567p 789s E E
    ('[1111m]234m567p789sEE', {'self_drawn': True},
     {'Fully Concealed Hand': (4, 1), 'Concealed Kong': (2, 1), 'Pung of Terminals or Honors': (1, 1), 'Single Wait': (1, 1)},
     8),
    # 123m 456p 789s EE 12s 3s
    ('123m456p789sEE12s3s', {'seat_wind': 'W', 'round_wind': 'S'},
     {'Mixed Straight': (8, 1), 'Concealed Hand': (2, 1), 'Mixed Double Chow': (1, 1), 'Edge Wait': (1, 1)},
     12),
    # 1233m 456p 789s EEE 3m
    ('1233m456p789sEEE3m', {'seat_wind': 'W', 'round_wind': 'S'},
     {'Mixed Straight': (8, 1), 'Concealed Hand': (2, 1), 'Pung of Terminals or Honors': (1, 1), 'Edge Wait': (1, 1)},
     12),
    # 4556m 789p EEE 123s 5m
    ('4556m789pEEE123s5m', {'seat_wind': 'W', 'round_wind': 'S'},
     {'Mixed Straight': (8, 1), 'Concealed Hand': (2, 1), 'Pung of Terminals or Honors': (1, 1), 'Closed Wait': (1, 1)},
     12),
    # 45567m 789p EE 123s 6m
    ('45567m789pEE123s6m', {},
     {'Mixed Straight': (8, 1), 'Concealed Hand': (2, 1)},
     10),
    # 1112m 456p 789s 123s 2m
    ('1112m456p789s123s2m', {},
     {'Concealed Hand': (2, 1), 'Two Terminal Chows': (1, 1), 'Pung of Terminals or Honors': (1, 1), 'No Honors': (1, 1)},
     5),
    # [222m] 1112m 456p 789p 3m
    ('[222m]1112m456p789p3m', {},
     {'Tile Hog': (2, 1), 'Short Straight': (1, 1), 'One Voided Suit': (1, 1), 'No Honors': (1, 1)},
     5),
    # 147m 258s 369p 123p E E
    ('147m258s369p123pEE', {'seat_wind': 'W', 'round_wind': 'S'},
     {'Knitted Straight': (12, 1), 'Concealed Hand': (2, 1), 'Single Wait': (1, 1)},
     15),
    # [123p] 147m 258s 369p 5m 5m
    ('[123p]147m258s369p5m5m', {},
     {'Knitted Straight': (12, 1), 'All Chows': (2, 1), 'Single Wait': (1, 1)},
     15),
    # 147m 258s 36p ESWNC 9p
    ('147m258s36pESWNC9p', {},
     {'Lesser Honors and Knitted Tiles': (12, 1), 'Knitted Straight': (12, 1)},
     24),
    # 147m 25s 36p ESWNCF P
    ('147m25s36pESWNCFP', {'self_drawn': True},
     {'Greater Honors and Knitted Tiles': (24, 1), 'Self-Drawn': (1, 1)},
     25),
]


def as_record(hand, kwargs):
    """A notation.md hand record for one vector."""
    rec = {"hand": hand}
    rec.update(kwargs)
    return rec
