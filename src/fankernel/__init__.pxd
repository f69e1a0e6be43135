# the fan kernel: cimported .pxd modules compiled into mjfast._core (see fankernel/mcr_score.pxd)
