/* discard.h: the Discard result of best_discards, a struct sequence (a
   tuple with named fields) made from C.  C because CPython's struct
   sequence type is built from static field descriptions through its C API
   only, and because creating one costs no Python-level constructor call:
   a 14-discard answer makes 14 of them. */
#ifndef MJFAST_DISCARD_H
#define MJFAST_DISCARD_H

#include <Python.h>

/* Discard: a tuple (tile, shanten, useful_kinds, useful_left) with two
   more fields by name only; built from C so a 14-discard answer costs
   no Python-level constructor calls. */
static PyStructSequence_Field mjfast_discard_fields[] = {
    {"tile", "the tile to discard (index 0-33)"},
    {"shanten", "shanten of the tiles left"},
    {"useful_kinds", "kinds of tile whose draw would lower it"},
    {"useful_left", "copies of those still unseen (4 - held - visible)"},
    {"below_8", "True when the discard leaves a ready hand whose every wait scores under 8 points "
                "(None unless asked for with check_points=True)"},
    {"fan_shanten", "fan_shanten of the tiles left (None unless asked for with rank='fan')"},
    {NULL, NULL}};
static PyStructSequence_Desc mjfast_discard_desc = {
    "mjfast.bots.Discard",
    "One discard of best_discards: (tile, shanten, useful_kinds, useful_left), "
    "plus below_8 and fan_shanten by name.",
    mjfast_discard_fields, 4};
static PyTypeObject* mjfast_discard_type = NULL;
static PyObject* mjfast_discard_type_get(void) {
    if (mjfast_discard_type == NULL)
        mjfast_discard_type = (PyTypeObject*)PyStructSequence_NewType(&mjfast_discard_desc);
    Py_XINCREF(mjfast_discard_type);
    return (PyObject*)mjfast_discard_type;
}
static PyObject* mjfast_discard_new(int t, int sh, int kinds, int left) {
    PyObject* o;
    if (mjfast_discard_type == NULL) {
        PyObject* tp = mjfast_discard_type_get();
        if (tp == NULL) return NULL;
        Py_DECREF(tp);
    }
    o = PyStructSequence_New(mjfast_discard_type);
    if (o == NULL) return NULL;
    PyStructSequence_SET_ITEM(o, 0, PyLong_FromLong(t));
    PyStructSequence_SET_ITEM(o, 1, PyLong_FromLong(sh));
    PyStructSequence_SET_ITEM(o, 2, PyLong_FromLong(kinds));
    PyStructSequence_SET_ITEM(o, 3, PyLong_FromLong(left));
    Py_INCREF(Py_None); PyStructSequence_SET_ITEM(o, 4, Py_None);
    Py_INCREF(Py_None); PyStructSequence_SET_ITEM(o, 5, Py_None);
    return o;
}
#endif /* MJFAST_DISCARD_H */
