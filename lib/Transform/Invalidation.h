// Cache invalidation: before every host-visible write to device memory that the
// tool can see (cudaMemcpy*/cudaMemset* destinations, launches of kernels that
// write a pointer argument), insert irregfix_invalidate(ptr), and before cudaFree
// irregfix_release(ptr), so
// remapped copies built from that memory are refreshed before their next use.
// Invalidating before the write is as good as after: nothing can use the cache
// between the two, and it also covers writes inside conditions.
#pragma once

#include "Analysis/WriteSet.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Replacement.h"

#include <functional>
#include <string>
#include <vector>

namespace irregfix {

// Memory a host call writes: a pointer argument, or a pointer field of a struct
// argument (Member = ".data" when the kernel writes through g.data).
struct WriteTarget {
  const clang::Expr *Arg = nullptr;
  std::string Member;
};

// A host write: the call that writes and what it writes.
struct HostWrite {
  const clang::Expr *Call = nullptr;
  std::vector<WriteTarget> Targets;
  bool Frees = false; // cudaFree*: irregfix_release rather than irregfix_invalidate
};

// The pointer arguments a host call writes, or none: cudaMemcpy*/cudaMemset*
// destinations and cudaFree* arguments.
std::vector<WriteTarget> runtimeCallTargets(const clang::CallExpr *Call);

// What a launch writes: the pointer arguments (and pointer fields of struct
// arguments) the kernel writes through; all non-const pointers when the kernel
// is unknown.
std::vector<WriteTarget> launchTargets(const clang::CallExpr *Launch, WriteSets &Writes);

struct InvalidationEdits {
  std::vector<clang::tooling::Replacement> Edits;
  // Writes the tool saw but could not instrument, with the reason.
  std::vector<std::pair<const clang::Expr *, std::string>> Skipped;
};

InvalidationEdits invalidations(const std::vector<HostWrite> &Writes, clang::ASTContext &Ctx);

} // namespace irregfix
