# the per-hand analysis kernels (win check, waits, shanten): inline .pxd files
# compiled into each module that cimports them, over the lookup tables of
# mjfast._tables (see tables.pxd)
