// Recognises the 1-D global thread index: blockIdx.x * blockDim.x + threadIdx.x
// in any operand order, with casts, and through const-like locals.
#pragma once

#include "Analysis/AstUtil.h"

#include "clang/AST/Expr.h"

namespace irregfix {

class FunctionLocals;
class WriteSet;

// True for an expression that is the global 1-D thread index: either the
// arithmetic itself or a local initialised with it and never written after.
bool isGlobalThreadIndex(const clang::Expr *E, const WriteSet &Writes);

// True for the arithmetic form only (no locals). `blockIdx.x * 256 + threadIdx.x`
// counts: it is the global index when the launch's blocks have 256 threads
// (kernelBlockSize says which size the kernel assumes; launches check it).
bool isGlobalThreadIndexArithmetic(const clang::Expr *E, const FunctionLocals &Locals);

// E, or what the integer local E names when the local is initialised and never
// changed after (`int threads = blockDim.x * gridDim.x;`), followed a few steps.
const clang::Expr *throughUnchangedLocals(const clang::Expr *E, const FunctionLocals &Locals);

// The literal block size in `blockIdx.x * C + threadIdx.x`, or 0.
unsigned threadIndexBlockSize(const clang::Expr *E, const FunctionLocals &Locals);

// The block size every thread-index expression of Kernel assumes (0: none
// assumes one; ~0u: two disagree).
unsigned kernelBlockSize(const clang::FunctionDecl *Kernel, const FunctionLocals &Locals);

// True when E is `t + 1` or `1 + t` for a global thread index t.
bool isGlobalThreadIndexPlusOne(const clang::Expr *E, const WriteSet &Writes);

// The builtin variable and field read by E (threadIdx.x → "threadIdx", 'x'),
// or false if E is not such a read.
bool isBuiltinIndexRead(const clang::Expr *E, const char *Var, char Field);


} // namespace irregfix
