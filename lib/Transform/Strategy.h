// Which strategy rewrites a decided kernel, and what it adds after the
// original kernel (which stays, as the fallback): the generated kernels and
// the launcher, each under a comment that says what it is.
//  - scatter (Scatter/): the kernel's updates through index arrays are rewritten;
//  - hoisted (Hoisted/): --hoist made its loop hoistable;
//  - lanes (Lanes/): its range loop may also run with several lanes a row
//    (the in-kernel transformed kernel stays beside it, for the other layouts);
//  - in-kernel (InKernel/): every other kernel with a transformed site or an
//    ordered launch.
#pragma once

#include "Analysis/ScatterSites.h"
#include "Analysis/Site.h"

#include "clang/AST/ASTContext.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace irregfix {

struct RewrittenKernel {
  std::string Text;     // to insert after the original kernel
  bool Hoisted = false; // its loop runs from the host
};

// Updates: the kernel's rewritten scatter updates, in slot order (none for
// the other strategies). The error is the whole message.
llvm::Expected<RewrittenKernel> rewriteKernel(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates,
                                              clang::ASTContext &Ctx);

} // namespace irregfix
