/* openmp.h: whether the module was built with OpenMP, how many processors
   it sees, and whether this is a debug build.  C because each answer is a
   preprocessor fact (_OPENMP, MJFAST_DEBUG_BUILD set by setup.py): a build
   without OpenMP must not even include <omp.h>. */
#ifndef MJFAST_OPENMP_H
#define MJFAST_OPENMP_H

#ifdef _OPENMP
#include <omp.h>
static inline int mjfast_openmp(void) { return 1; }
static inline int mjfast_num_procs(void) { return omp_get_num_procs(); }
#else
static inline int mjfast_openmp(void) { return 0; }
static inline int mjfast_num_procs(void) { return 1; }
#endif

#ifndef MJFAST_DEBUG_BUILD
#define MJFAST_DEBUG_BUILD 0
#endif

#endif /* MJFAST_OPENMP_H */
