"""``python tests/unprivileged.py COMMAND ARGS...`` runs COMMAND subject to file permissions, even as root.

Tests often run as root (containers), and root ignores chmod. Root drops CAP_DAC_OVERRIDE and
CAP_DAC_READ_SEARCH from its bounding set before exec, so a read-only or unreadable file denies it as it would
anyone else; any other user needs nothing dropped."""

import ctypes
import os
import sys

PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2

if __name__ == "__main__":
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
            if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), f"cannot drop capability {cap}")
    os.execv(sys.argv[1], sys.argv[1:])
