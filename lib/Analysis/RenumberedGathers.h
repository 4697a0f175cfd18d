// Gathers a range site may read through a renumbered copy: `x[col[k]]` where
// col is one of the site's copies and the kernel uses col's values only as
// subscripts of such arrays (directly, or through a local that holds one:
// `rank[c] / degree[c]`), each read nowhere else. In the locality order the
// runtime then stores in col's copy each value's position in the order and
// passes the kernel each such array copied in that order, so neighbouring
// threads read neighbouring elements of it; the values read are the same, so
// results are unchanged.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// Sets Site::Renumbered on the transformable range sites of a permutable
// kernel that have such a gather (at most one a site), adds the alias checks
// its copy needs (x must not be what the kernel writes), and gives x's reads
// their verdict's reason.
void findRenumberedGathers(KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix
