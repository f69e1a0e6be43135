"""Type stub of the text archive's tokenizer and pull reader
(src/_textlog.pyx): it has no Python names; its interface is the C one of
src/mjfast/_textlog.pxd, which the replay driver (mjfast._replay) cimports."""
