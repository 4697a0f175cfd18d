// Kernel side of the lanes strategy: derives `<kernel>_irregfix_lanes` from
// the original kernel, running each row with L lanes (warp-cooperative rows).
// Thread g of its launch works for row g / L as lane g % L: the code before
// the loop runs in every lane; lane l takes the loop's iterations start + l,
// start + l + L, ... of the original arrays, read in place; each accumulator
// gathers the lane's part from its operator's identity (or from its own value,
// for min, max, and, or), the lanes combine the parts with shuffles within
// their group, and only lane 0 goes on past the loop.
#pragma once

#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irregfix::lanes {

// The variant's source text; Info.Lanes.Qualifies must hold.
llvm::Expected<std::string> rewriteKernel(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix::lanes
