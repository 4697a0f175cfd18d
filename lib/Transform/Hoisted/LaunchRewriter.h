// Host side of the hoisted strategy: the in-kernel launcher whose transformed
// branch, once the runtime has per-thread buffers for the live variables
// (begin_hoisted), launches `<kernel>_irregfix_hoisted` once per slice of
// iterations and once more for the code after the loop; without buffers it
// launches the in-kernel transformed kernel. Launches are rewritten to call the
// launcher as in the in-kernel strategy (inkernel::rewriteLaunch).
#pragma once

#include "Analysis/Site.h"
#include "Transform/Launcher.h"

#include "clang/AST/ASTContext.h"

#include <string>

namespace irregfix::hoisted {

// The launcher's model (Transform/Launcher.h): the in-kernel launcher's, its
// transformed branch running the hoisted loop; Info.Hoist.Hoistable must hold.
Launcher launcher(const KernelInfo &Info, clang::ASTContext &Ctx);

} // namespace irregfix::hoisted
