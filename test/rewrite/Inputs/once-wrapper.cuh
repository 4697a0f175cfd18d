// A header with nothing to rewrite that includes a kernel file again.
#include "once-kernel.cuh"
inline int wrapped() { return 1; }
