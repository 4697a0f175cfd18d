// Whether a kernel's neighbour-list site may use the sharing layout: each
// thread block stages the distinct elements its threads read in shared memory
// (PPoPP'13's sharing), and thread t reads them there. The transformed kernel
// then starts with a cooperative load and a barrier that every thread of the
// block reaches, so the analysis checks what that prologue needs.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// (Shareability itself is declared in Site.h, as part of KernelInfo.)
// A kernel is shareable when its first transformable neighbour-list site
// remaps one array; the kernel is not a template (the runtime needs the
// transformed kernel's handle to size its shared memory); it is chunkable (no
// gridDim read: no grid-stride loop hands a thread another block's rows); and
// neither it nor a function it calls declares dynamic (extern) shared memory,
// which the staged copy takes. (The site's thread index is the 1-D global
// index, never written, by the site finder: thread t runs in block t / blockDim.x.)
Shareability analyzeShareability(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix
