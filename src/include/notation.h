/* notation.h: the character classes of the tile notations' scanners
   (whitespace as Python defines it, the compact notation's letters and
   digits, Botzone's tile letters).  C because the scanners read a str's
   code points straight from its buffer and classify each with one table
   load (a designated-initializer table) or one switch, for ASCII, and
   Python's own Py_UNICODE_ISSPACE beyond it. */
#ifndef MJFAST_NOTATION_H
#define MJFAST_NOTATION_H

#include <Python.h>
#include <stdint.h>

/* str.isspace(), str.split(), str.strip() and re's \s agree on this */
static inline int mj_space(uint32_t ch) {
    return ch < 128 ? (ch == 32 || (ch >= 9 && ch <= 13) || (ch >= 28 && ch <= 31)) : Py_UNICODE_ISSPACE(ch);
}
/* the class of an ASCII character in compact notation: 1-9 a digit, 10 +
   the first tile of a suit letter (m 10, p 19, s 28), 40 + the tile of an
   honor letter (67-73), 100 whitespace, 0 anything else */
static const unsigned char MJ_CLS[128] = {
    ['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5, ['6'] = 6, ['7'] = 7, ['8'] = 8, ['9'] = 9,
    ['m'] = 10, ['p'] = 19, ['s'] = 28,
    ['E'] = 67, ['S'] = 68, ['W'] = 69, ['N'] = 70, ['C'] = 71, ['F'] = 72, ['P'] = 73,
    [9] = 100, [10] = 100, [11] = 100, [12] = 100, [13] = 100, [32] = 100,
    [28] = 100, [29] = 100, [30] = 100, [31] = 100,
};
static inline int mj_cls(uint32_t ch) {
    return ch < 128 ? MJ_CLS[ch] : (Py_UNICODE_ISSPACE(ch) ? 100 : 0);
}
/* a Botzone letter: its first tile (W 0, B 9, T 18, F 27, J 31) and its
   number of codes; H (flowers) 8 codes from 64 */
static inline int mj_bz_base(uint32_t ch, int* n) {
    switch (ch) {
    case 'W': *n = 9; return 0;
    case 'B': *n = 9; return 9;
    case 'T': *n = 9; return 18;
    case 'F': *n = 4; return 27;
    case 'J': *n = 3; return 31;
    case 'H': *n = 8; return 64;
    default: return -1;
    }
}
#endif /* MJFAST_NOTATION_H */
