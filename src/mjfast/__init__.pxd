# The interfaces (.pxd) of the compiled modules that other compiled modules
# cimport, under their package name: a cdef class cimported from here is
# imported at run time from mjfast.<module>, where it lives.
