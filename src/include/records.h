/* records.h: the index of a score record's key, for the bulk reader of
   JSON-like records.  C because it is a switch on the key's length and
   first byte then one memcmp, on the key's UTF-8 bytes: the cheapest test
   for the dozen-odd keys of every record of a million-record file. */
#ifndef MJFAST_RECORDS_H
#define MJFAST_RECORDS_H

#include <Python.h>
#include <string.h>

/* the index of a record key (MJ_K_* order below), 14 for a context key
   that batch columns cannot hold (wildcards, Guizhou's and old Shanghai's
   flags: the Python validator names it rather than the row being scored
   without it), -1 for any other: one memcmp after a switch on the length
   and the first byte */
static inline int mj_record_key(const unsigned char* s, Py_ssize_t m) {
    #define MJ_IS(lit, k) return memcmp(s, lit, m) == 0 ? (k) : -1
    switch (m) {
    case 2: MJ_IS("id", 1);
    case 8: MJ_IS("wild_win", 14);
    case 18: MJ_IS("discard_after_kong", 14);
    case 4: if (s[0] == 'h') { MJ_IS("hand", 0); } if (s[0] == 'k') { MJ_IS("kong", 8); } return -1;
    case 5: MJ_IS("rules", 2);
    case 7: MJ_IS("flowers", 5);
    case 9: if (s[0] == 's') { MJ_IS("seat_wind", 3); } if (s[0] == 'l') { MJ_IS("last_tile", 9); }
            if (s[0] == 'w') { MJ_IS("wildcards", 14); } return -1;
    case 10: if (s[0] == 'r') { MJ_IS("round_wind", 4); } if (s[0] == 's') { MJ_IS("self_drawn", 6); }
             if (s[0] == 'h') { MJ_IS("human_hand", 12); } if (s[0] == 'w') { MJ_IS("wild_fifth", 14); }
             return -1;
    case 11: MJ_IS("fourth_tile", 7);
    case 12: MJ_IS("earthly_hand", 11);
    case 13: MJ_IS("heavenly_hand", 10);
    case 14: if (s[0] == 'r') { MJ_IS("ready_at_start", 13); } if (s[0] == 'w') { MJ_IS("wildcard_tiles", 14); }
             if (s[0] == 'd') { MJ_IS("declared_ready", 14); } return -1;
    default: return -1;
    }
    #undef MJ_IS
}
#endif /* MJFAST_RECORDS_H */
