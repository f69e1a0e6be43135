# the fan kernel: inline .pxd modules, compiled into each extension that cimports them (see fankernel/mcr_score.pxd)
