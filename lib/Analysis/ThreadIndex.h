// Recognises the 1-D global thread index: blockIdx.x * blockDim.x + threadIdx.x
// in any operand order, with casts, and through const-like locals; and the
// linear index of a 2-D or 3-D thread space, `i + nx * j (+ nx * ny * k)`.
#pragma once

#include "Analysis/AstUtil.h"

#include "clang/AST/Expr.h"

#include <optional>
#include <vector>

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

// Whether F's body reads the y or z field of threadIdx or blockIdx: only then
// may an index be a linear one of several dimensions. Known once per function
// (kernelBlockSize's walk finds it for a kernel on the way).
bool readsOtherDimensions(const clang::FunctionDecl *F);

// True when E is `t + 1` or `1 + t` for a global thread index t.
bool isGlobalThreadIndexPlusOne(const clang::Expr *E, const WriteSet &Writes);

// The global thread index of dimension D ('x', 'y' or 'z'): for 'x' the 1-D
// index (isGlobalThreadIndex), for the others blockIdx.D * blockDim.D +
// threadIdx.D, as written or through a local initialised with it and never
// written.
bool isDimensionThreadIndex(const clang::Expr *E, char D, const WriteSet &Writes);

// A linear thread index: the global indices of two or three dimensions
// numbered in one, `i + nx * j` or `i + nx * j + nx * ny * k` in any order and
// nesting (`j * nx + i`, `(k * ny + j) * nx + i`), directly or through
// unwritten locals, the strides computable at the launch (isLaunchEvaluable,
// or an unwritten local holding such a value). Whether it is one-to-one, and
// how many threads it numbers, its guard says (ActiveThreads.h).
struct LinearThreadIndex {
  struct Term {
    const clang::Expr *Index = nullptr;    // i, j or k where the index names it; null: unused
    std::vector<const clang::Expr *> Stride; // the factors it is multiplied by (none: 1)
  };
  Term Dims[3]; // x, y, z
  unsigned dimensions() const { return (Dims[0].Index != nullptr) + (Dims[1].Index != nullptr) + (Dims[2].Index != nullptr); }
};

// E as a linear thread index of at least two dimensions, or nothing (the 1-D
// index is isGlobalThreadIndex's).
std::optional<LinearThreadIndex> asLinearThreadIndex(const clang::Expr *E, const WriteSet &Writes);

// The index a site's copies are laid out in: the 1-D global index or a linear one.
bool isThreadIndex(const clang::Expr *E, const WriteSet &Writes);

// Whether A and B number the threads alike: both the 1-D global index, or
// linear indices of the same dimensions and strides.
bool sameThreadIndex(const clang::Expr *A, const clang::Expr *B, const WriteSet &Writes,
                     const clang::ASTContext &Ctx);

// E's factors: the operands of a product, through parentheses, casts and
// unwritten locals (`nx * ny` gives nx and ny).
std::vector<const clang::Expr *> productFactors(const clang::Expr *E, const WriteSet &Writes);

// Whether two lists of factors hold the same expressions, in any order.
bool sameFactors(const std::vector<const clang::Expr *> &A, const std::vector<const clang::Expr *> &B,
                 const clang::ASTContext &Ctx);

// Whether E reads the builtin variable Var's field Field (threadIdx.x:
// "threadIdx", 'x'; Field 0: any field).
bool isBuiltinIndexRead(const clang::Expr *E, const char *Var, char Field);
// Whether E reads x, y or z of threadIdx, blockIdx, blockDim or gridDim.
bool isAnyBuiltinIndexRead(const clang::Expr *E);

// The variable and member E reads when it is `v.m` of a variable v (beneath
// casts; threadIdx.x: "threadIdx", "x"), else empty.
struct BuiltinIndexRead {
  llvm::StringRef Var, Field;
};
BuiltinIndexRead builtinIndexRead(const clang::Expr *E);


} // namespace irregfix
