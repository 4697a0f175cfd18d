// Kernel side of the scatter strategy (irregular reductions): a variant of the
// kernel, `<kernel>_irregfix`, whose scatter update `A[f[t]] += e` (or
// `atomicAdd(&A[f[t]], e)`) becomes `__irregfix_contrib[t] = e`, the buffer a
// parameter of its own; with several updates a thread, update k becomes
// `__irregfix_contrib[(t) * updates + k] = e_k`; an assignment `A[f[t]] = e`
// also sets its flag, `__irregfix_written[t] = 1`, a second buffer parameter.
// Everything else of the kernel stays as written.
#pragma once

#include "Analysis/ScatterSites.h"
#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace irregfix::scatter {

// The element type of the updated array as the kernel's source spells it (`T`
// in a kernel template): the type of the variant's contributions buffer.
std::string contributionType(const KernelInfo &Info, const ScatterSite &S, clang::ASTContext &Ctx);

// The variant's text, from the kernel's first token to its last. `Updates`: the
// kernel's scatter updates, all transformable, in the order of their slots.
llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates,
                                          clang::ASTContext &Ctx);

} // namespace irregfix::scatter
