// Host side of the lanes strategy: the in-kernel launcher whose transformed
// branch launches `<kernel>_irregfix_lanes` with the runtime's configuration
// (irregfix::lanes_launch: the original's threads times the lanes a row) when
// the view the runtime returned is in the lanes layout, and the in-kernel
// transformed kernel otherwise. Under IRREGFIX_VERIFY the original kernel then
// runs too, into copies of the arrays the kernel stores at its thread index,
// and the runtime compares (lanes_reference, lanes_compare). Launches are
// rewritten to call the launcher as in the in-kernel strategy.
#pragma once

#include "Analysis/Site.h"
#include "Transform/Launcher.h"

#include "clang/AST/ASTContext.h"

namespace irregfix::lanes {

// The launcher's model (Transform/Launcher.h); Info.Lanes.Qualifies must hold.
Launcher launcher(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix::lanes
