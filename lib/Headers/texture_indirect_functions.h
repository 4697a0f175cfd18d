// irregfix stub: Clang 19's CUDA wrapper includes texture_indirect_functions.h, which CUDA 13 removed.
// Texture and surface functions are not used by the code irregfix analyses.
#pragma once
