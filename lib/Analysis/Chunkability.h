// Whether a kernel's launch may run as several launches of fewer blocks: a
// pipelined launch computes chunk c of the grid while the runtime copies chunk
// c+1's data. The transformed kernel then reads `blockIdx.x + offset` for
// blockIdx.x. CUDA runs a grid's blocks in no guaranteed order, so a kernel
// keeps its meaning when its blocks are launched in consecutive groups, as long
// as no block can tell: nothing reads the grid's size or synchronises the grid,
// and every block index it reads is its own text's `blockIdx.x` (which the
// rewrite offsets).
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// (Chunkability itself is declared in Site.h, as part of KernelInfo.)
// A kernel is chunkable when it has a transformable site; neither it nor a
// function it calls reads gridDim, uses cooperative groups or inline
// assembly, or makes an indirect call or a call whose body is not visible;
// the functions it calls do not read blockIdx; and the kernel reads blockIdx
// only as `blockIdx.x`, written out (not through a macro).
Chunkability analyzeChunkability(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix
