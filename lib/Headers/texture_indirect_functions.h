// irregfix stub: Clang 19's CUDA wrapper includes texture_indirect_functions.h, which CUDA 13 removed.
// Texture and surface functions are not used by the code irregfix analyses, but kernels call the
// texture-object fetches (`tex2D<float>(tex, x, y)`) and must parse: declared for the device, as the
// header declared them, without bodies (the tool parses host code only).
#pragma once
#pragma clang system_header
#if defined(__cplusplus) && defined(__CUDA__)
#define IRREGFIX_TEX(R) template <class T> __attribute__((device)) R
IRREGFIX_TEX(T) tex1Dfetch(cudaTextureObject_t, int);
IRREGFIX_TEX(T) tex1D(cudaTextureObject_t, float);
IRREGFIX_TEX(T) tex2D(cudaTextureObject_t, float, float);
IRREGFIX_TEX(T) tex3D(cudaTextureObject_t, float, float, float);
IRREGFIX_TEX(T) tex1DLayered(cudaTextureObject_t, float, int);
IRREGFIX_TEX(T) tex2DLayered(cudaTextureObject_t, float, float, int);
IRREGFIX_TEX(T) texCubemap(cudaTextureObject_t, float, float, float);
IRREGFIX_TEX(T) texCubemapLayered(cudaTextureObject_t, float, float, float, int);
IRREGFIX_TEX(T) tex2Dgather(cudaTextureObject_t, float, float, int = 0);
IRREGFIX_TEX(T) tex1DLod(cudaTextureObject_t, float, float);
IRREGFIX_TEX(T) tex2DLod(cudaTextureObject_t, float, float, float);
IRREGFIX_TEX(T) tex3DLod(cudaTextureObject_t, float, float, float, float);
IRREGFIX_TEX(T) tex1DGrad(cudaTextureObject_t, float, float, float);
IRREGFIX_TEX(T) tex2DGrad(cudaTextureObject_t, float, float, float2, float2);
IRREGFIX_TEX(T) tex3DGrad(cudaTextureObject_t, float, float, float, float4, float4);
// The forms that write the texel through a pointer.
IRREGFIX_TEX(void) tex1Dfetch(T *, cudaTextureObject_t, int);
IRREGFIX_TEX(void) tex1D(T *, cudaTextureObject_t, float);
IRREGFIX_TEX(void) tex2D(T *, cudaTextureObject_t, float, float);
IRREGFIX_TEX(void) tex3D(T *, cudaTextureObject_t, float, float, float);
#undef IRREGFIX_TEX
#endif
// The surface-object functions too: nvcc's headers declare them for every .cu file, and Clang's
// wrapper includes no header of its own for them.
#include "surface_indirect_functions.h"
