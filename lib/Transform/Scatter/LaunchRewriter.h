// Host side of the scatter strategy: the launcher `<kernel>_irregfix_launch`
// (the in-kernel strategy's name and parameters, so launches are rewritten
// alike) asks the runtime for the inspector's segments and a contributions
// buffer (prepare_scatter), launches the variant, then the executor
// (execute_scatter); or the original kernel when the runtime declines, times
// the atomics faster, or a step fails.
#pragma once

#include "Analysis/ScatterSites.h"
#include "Analysis/Site.h"
#include "Transform/Launcher.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace irregfix::scatter {

// The launcher's model (Transform/Launcher.h), to follow the variant.
// `Updates` as rewriteKernel's.
Launcher launcher(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates, clang::ASTContext &Ctx);

} // namespace irregfix::scatter
