// irregfix compatibility header: the host compiler's omp.h, which nvcc's host
// compiler finds and the tool's parse finds after every other include directory
// (-idirafter, Frontend/CudaArguments.cpp). GCC's marks its allocators with
// `__malloc__ (deallocator)`, an attribute form Clang does not know: read as
// plain `__malloc__`. Nothing else changes.
#pragma push_macro("__malloc__")
#define __malloc__(...) __malloc__
#include_next <omp.h>
#pragma pop_macro("__malloc__")
