# the wildcard kernels (win check, shanten, waits and useful tiles of hands
# with wildcards): inline .pxd files compiled into mjfast._wild, over its
# tables (see tables.pxd)
