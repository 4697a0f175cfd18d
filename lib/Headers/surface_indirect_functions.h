// irregfix stub: Clang 19's CUDA wrapper includes surface_indirect_functions.h, which CUDA 13 removed.
// Surface functions are not used by the code irregfix analyses, but kernels call the surface-object
// reads and writes and must parse: declared for the device, as the header declared them, without
// bodies (the tool parses host code only).
#pragma once
#pragma clang system_header
#if defined(__cplusplus) && defined(__CUDA__)
#define IRREGFIX_SURF(R) template <class T> __attribute__((device)) R
IRREGFIX_SURF(T) surf1Dread(cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
IRREGFIX_SURF(T) surf2Dread(cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
IRREGFIX_SURF(T) surf3Dread(cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
IRREGFIX_SURF(void) surf1Dread(T *, cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
IRREGFIX_SURF(void) surf2Dread(T *, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
IRREGFIX_SURF(void) surf3Dread(T *, cudaSurfaceObject_t, int, int, int,
                               cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
IRREGFIX_SURF(void) surf1Dwrite(T, cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
IRREGFIX_SURF(void) surf2Dwrite(T, cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
IRREGFIX_SURF(void) surf3Dwrite(T, cudaSurfaceObject_t, int, int, int,
                                cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
#undef IRREGFIX_SURF
#endif
