# The interface of mjfast._notation (src/_notation.pyx), the notation parser,
# for the other compiled modules: a winning hand (14 tiles counting 3 per
# meld, no flower codes) into the kernel's PHand, from a str or from ASCII
# bytes (a JSON line's hand string).  PARSE_FALLBACK for any other string:
# the caller's Python path parses it again for the message.
from fankernel.fan_base cimport PHand

cdef enum:
    PARSE_OK = 0
    PARSE_FALLBACK = 1

cdef int parse_fast(str s, PHand* h) noexcept
cdef int parse_fast_bytes(const unsigned char* s, Py_ssize_t n, PHand* h) noexcept nogil
