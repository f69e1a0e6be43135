/* fankernel/forms.h: the tables of the special forms (the six knitted
   arrangements, the thirteen orphans).  C statics rather than Cython module
   globals so that the kernel reads them as plain arrays at fixed addresses
   inside its nogil loops; one copy per including module (_tables, _core,
   _fans, _decide, _targets), filled when it loads. */
#ifndef MJFAST_FK_FORMS_H
#define MJFAST_FK_FORMS_H

#include <stdint.h>

static int mjfast_knit_suit[6][3];      /* arrangement a: the suit of its 1-4-7, 2-5-8, 3-6-9 triples */
static int mjfast_knit_tiles[6][9];     /* arrangement a: the tile index of its nine tiles */
static uint64_t mjfast_knit_mask[6];    /* the nine tiles of each arrangement as a 34-bit mask */
static int mjfast_orphans[13];
/* the thirteen orphans' tiles (1/9 of each suit, the honors) as a 34-bit mask */
static const uint64_t mjfast_orphans_mask = 0x3FC060301ULL;

#endif /* MJFAST_FK_FORMS_H */
