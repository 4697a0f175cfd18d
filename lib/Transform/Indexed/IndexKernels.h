// Host side of the indexed strategy: for each indexed site of a kernel, the
// kernels that compute its element indices outside the kernel — a lengths
// kernel (loop sites: each thread's trip count) and an indices kernel (each
// read's element index at each of its slots) — and a host function that walks
// the runtime's steps (prepare_indexed, continue_indexed), launching them when
// the runtime asks. The indices are the kernel's own expressions, copied with
// the thread index, the loop variable and the locals they use replaced by what
// they stand for, and every load bounds-checked (irregfix::checked_load): the
// generated kernels compute every thread's indices, past the kernel's guards.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irregfix::indexed {

// The index kernels and the step function of site I (an indexed site of Info),
// to place before the launcher; or why they cannot be written.
llvm::Expected<std::string> definitions(const KernelInfo &Info, unsigned I, clang::ASTContext &Ctx);

// Why the index kernels of site I cannot be written (an index spelled through
// a macro, a local without one value), or "": the decision step asks before
// it lets the site be transformed.
std::string unwritableBecause(const KernelInfo &Info, unsigned I, clang::ASTContext &Ctx);

// The launcher's condition that prepares site I's copies: a call of its step
// function with the launcher's parameters (their names as the kernel's).
std::string prepareCall(const KernelInfo &Info, unsigned I, const std::string &Arguments);

// The name of site I's first-iteration local in the transformed kernel
// (loop sites): a read's iteration is `k - first`.
std::string firstName(unsigned I);

// For the inner loop L (1, 2, ...) of site I's nest: the names of its
// first-value, end (a ragged nest's inner loop) and trip-count locals in the
// transformed kernel. A read's iteration is `(k0 - first) * len1 + (k1 -
// first1)`, and so on inwards.
std::string innerFirstName(unsigned I, unsigned L);
std::string innerEndName(unsigned I, unsigned L);
std::string innerLengthName(unsigned I, unsigned L);
// The name of site I's count of the iterations of its ragged nest's inner
// loop before the present one (Site::IndexedRagged).
std::string baseName(unsigned I);

// The name of the step local of loop L (0: the outermost) of site I, for a
// loop stepping by more than one: its iteration is `(k - first) / step`.
std::string stepName(unsigned I, unsigned L);

} // namespace irregfix::indexed
