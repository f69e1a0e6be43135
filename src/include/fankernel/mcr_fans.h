/* fankernel/mcr_fans.h: the MCR fan kernel's tables (points, exclusions,
   the chow-pattern and kong lookups, tile traits) and the tile-class masks
   as 34-bit constants.  C statics and macros so that the kernel reads them
   at fixed addresses (or as immediates) inside its nogil loops; one copy
   per including module (only mjfast._fans), filled when it loads. */
#ifndef MJFAST_FK_MCR_FANS_H
#define MJFAST_FK_MCR_FANS_H

#include <stdint.h>
#include "fan_base.h"

static int16_t mjfast_mcr_points[84];
static mjfast_excl_table mjfast_mcr_excl;
static int mjfast_mcr_demoters[84];
static int mjfast_mcr_n_demoters;
static int8_t mjfast_chow_index[34];
static uint8_t mjfast_chow2[21 * 21];
static uint8_t mjfast_chow3[21 * 21 * 21];
static uint8_t mjfast_set_traits[2][34];
static uint8_t mjfast_kong_table[5][5][5][2];
static uint8_t mjfast_pung_fan[34];
static uint64_t mjfast_m_green, mjfast_m_reversible;
#define MJFAST_M_MAN 0x1FFULL
#define MJFAST_M_PIN (0x1FFULL << 9)
#define MJFAST_M_SOU (0x1FFULL << 18)
#define MJFAST_M_WIND (0xFULL << 27)
#define MJFAST_M_DRAGON (0x7ULL << 31)
#define MJFAST_M_HONOR (0x7FULL << 27)
#define MJFAST_M_TERMINAL (1ULL | 1ULL << 8 | 1ULL << 9 | 1ULL << 17 | 1ULL << 18 | 1ULL << 26)
#define MJFAST_M_SUITED 0x7FFFFFFULL

#endif /* MJFAST_FK_MCR_FANS_H */
