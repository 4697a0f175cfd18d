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

#include <vector>

namespace irregfix {

// Sets Info.OrderOnly (with Info.Perm and the launch's alias checks) for such
// a kernel, once its sites, scatter sites and hoisting are decided. Its
// threads must not read what others write: every array it writes it only
// stores to (`P[i] = v`, or a counting atomic's target), and the launch checks
// each apart from every array it reads.
void findOrderedLaunch(KernelInfo &Info, const std::vector<ScatterSite> &Updates, clang::ASTContext &Ctx);

} // namespace irregfix
