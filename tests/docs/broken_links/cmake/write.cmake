# Writes what cmake/missing.cmake would read.
