// glibc's malloc tuning (mallopt, malloc_trim), which the Glibc module leaves out.
#include <malloc.h>
