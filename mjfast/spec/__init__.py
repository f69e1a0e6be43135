"""Plain data that both sides of mjfast are built from: context flags
(:mod:`mjfast.spec.flags`).  Nothing here imports the rest of mjfast, so
setup.py reads these modules by path to generate the compiled side's
constants, and a test checks that the build and the data agree."""
