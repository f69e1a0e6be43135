/* seq34.h: the 34 counts of a Python list or tuple of ints read straight
   into bytes, for the per-call decisions of the bots (shanten, waits,
   discards), whose cost for a list argument is mostly this read.  C
   because it reads the items with CPython's C API (version-dependent
   inline reads of an int's value, the free-threaded build's critical
   section), which Cython has no spelling for; the details are below. */
#ifndef MJFAST_SEQ34_H
#define MJFAST_SEQ34_H

#include <Python.h>
#include <stdint.h>

/* The Python ints of a 34-item list or tuple, each 0..4, into out;
   0 when it is anything else (the Python front end then reads it and
   words the error).  Only an exact list or tuple of exact ints is
   read here: a bool, an int subclass or a numpy integer goes to the
   front end, which decides what it means (it refuses True, say).

   Only the documented C API, so that it stays right on every CPython
   the package supports (3.9 to 3.14) and on free-threaded builds.
   (An earlier version found the cached small ints 0..4 by address
   arithmetic, without holding them: it assumed their layout in memory
   and a reference count that immortal objects no longer keep.)

   * 3.12 and later: an exact int, then PyUnstable_Long_IsCompact /
     _CompactValue, inline reads of the int's own header (a count is
     always compact).  As fast as the address trick was.
   * Before 3.12 there is no inline read of an int's value, and a call
     of PyLong_AsLongAndOverflow per item made a list's shanten about
     1.5 times slower.  So a first branch-free pass compares each item
     with the ints 0..4 themselves, held here by strong references
     from import on: an item equal to one of them is that int, on any
     interpreter.  It is fast because CPython hands out one shared
     object for each small int (as PyLong_FromLong documents), so a
     list of counts built in Python holds exactly these objects.  Any
     other item (an int made some other way, a bad item) makes a
     second pass with PyLong_AsLongAndOverflow, which for an exact int
     runs no Python code and sets no error.

   Why the list read is safe: with a GIL nothing below can let another
   thread run (no Python code, no blocking), so the list cannot change
   while its items are read.  A free-threaded build has no such
   guarantee: another thread may resize the list (freeing its item
   array) or replace an item (freeing the old int) at any moment, so
   the list is read inside its critical section, which every list
   mutation also takes; nothing inside blocks, so the section is never
   suspended.  A tuple cannot change: the caller's reference keeps it
   and, through it, its items alive.  Items are read through
   PySequence_Fast_ITEMS, documented for what PySequence_Fast returns,
   which for an exact list or tuple is the object itself. */
#if PY_VERSION_HEX >= 0x030C0000
static int mjfast_ints_init(void) { return 0; }
static int mjfast_items34(PyObject* h, uint8_t* out) {
    PyObject* const* items;
    Py_ssize_t v;
    int i;
    if (PySequence_Fast_GET_SIZE(h) != 34) return 0;
    items = PySequence_Fast_ITEMS(h);
    for (i = 0; i < 34; ++i) {
        PyObject* o = items[i];
        if (!PyLong_CheckExact(o) || !PyUnstable_Long_IsCompact((PyLongObject*)o)) return 0;
        v = PyUnstable_Long_CompactValue((PyLongObject*)o);
        if (v < 0 || v > 4) return 0;
        out[i] = (uint8_t)v;
    }
    return 1;
}
#else
static PyObject* mjfast_int04[5] = {NULL, NULL, NULL, NULL, NULL};
static int mjfast_ints_init(void) {
    int k;
    for (k = 0; k < 5; ++k)
        if (mjfast_int04[k] == NULL && (mjfast_int04[k] = PyLong_FromLong(k)) == NULL) return -1;
    return 0;
}
static int mjfast_items34(PyObject* h, uint8_t* out) {
    PyObject* const* items;
    PyObject *i0 = mjfast_int04[0], *i1 = mjfast_int04[1], *i2 = mjfast_int04[2],
             *i3 = mjfast_int04[3], *i4 = mjfast_int04[4];
    unsigned miss = 0, k;
    int i, ovf;
    long v;
    if (PySequence_Fast_GET_SIZE(h) != 34) return 0;
    items = PySequence_Fast_ITEMS(h);
    for (i = 0; i < 34; ++i) {
        PyObject* o = items[i];
        k = (o == i1) + 2u * (o == i2) + 3u * (o == i3) + 4u * (o == i4);
        out[i] = (uint8_t)k;
        miss |= (k == 0) & (o != i0);
    }
    if (!miss) return 1;
    for (i = 0; i < 34; ++i) {
        if (!PyLong_CheckExact(items[i])) return 0;
        v = PyLong_AsLongAndOverflow(items[i], &ovf);
        if (ovf || v < 0 || v > 4) return 0;
        out[i] = (uint8_t)v;
    }
    return 1;
}
#endif
static int mjfast_seq34(PyObject* h, uint8_t* out) {
    int ok;
    if (PyTuple_CheckExact(h)) return mjfast_items34(h, out);
    if (!PyList_CheckExact(h)) return 0;
#ifdef Py_GIL_DISABLED
    Py_BEGIN_CRITICAL_SECTION(h);
    ok = mjfast_items34(h, out);
    Py_END_CRITICAL_SECTION();
#else
    ok = mjfast_items34(h, out);
#endif
    return ok;
}

#endif /* MJFAST_SEQ34_H */
