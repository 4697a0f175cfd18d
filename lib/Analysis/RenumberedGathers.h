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

// A transformable range site's renumbered gather (its Site::Renumbered).
struct RenumberedGatherFinding {
  unsigned Site = 0; // an index into KernelInfo::Sites
  Site::RenumberedGather Gather;
  // The site's alias checks with those its copies add (no X may be what the kernel writes).
  std::vector<std::pair<ArrayRef, ArrayRef>> AliasChecks;
  std::vector<const clang::Expr *> Reads; // the gathers `X[P[k]]`
};

// The renumbered gathers of a permutable kernel's transformable range sites,
// at most one a site.
std::vector<RenumberedGatherFinding> findRenumberedGathers(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix
