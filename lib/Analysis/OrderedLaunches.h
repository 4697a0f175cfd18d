// Kernels that gain from the locality order without a copy to read: no
// transformable site, but indirect reads (a cell-list traversal whose cell
// comes from the thread's own position, reads through a range the tool cannot
// copy) and threads that may be permuted. Their launches may run the threads
// in a locality order another site computed over as many threads (the runtime's
// prepare_order): threads that read the same elements then run side by side.
// Each thread's work is unchanged, so results are too; the selector times it
// against the original.
#pragma once

#include "Analysis/ScatterSites.h"
#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

#include <optional>
#include <vector>

namespace irregfix {

// What such a kernel's launch needs: its thread index, and the (written, read)
// pairs checked apart at each launch.
struct OrderedLaunch {
  Permutability Perm;
  std::vector<std::pair<ArrayRef, ArrayRef>> AliasChecks;
};

// The ordered launch of such a kernel, once its sites, scatter sites and
// hoisting are decided (Decide/). Its threads must not read what others
// write: every array it writes it only stores to (`P[i] = v`, or a counting
// atomic's target), and the launch checks each apart from every array it reads.
std::optional<OrderedLaunch> findOrderedLaunch(const KernelInfo &Info, const std::vector<ScatterSite> &Updates,
                                               clang::ASTContext &Ctx);

} // namespace irregfix
