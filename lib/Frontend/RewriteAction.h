// The LibTooling action: parses one .cu file, recording what the preprocessor
// sees (the files it may rewrite, the files it depends on, code only the
// device compilation sees), then runs the file's rewrite (FileRewrite.h).
#pragma once

#include "Decide/KernelDecision.h"
#include "Frontend/FileResult.h"

#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>
#include <vector>

namespace irregfix {

struct RewriteOptions {
  bool Remarks = true;
  // --hoist: run the loop of every hoistable kernel from the host, or of the kernels named.
  HoistSelection Hoist;
  // --reassociate: floating-point sums may run with several lanes a row.
  bool Reassociate = false;
  // Directories whose files are never rewritten, though not system headers
  // (the CUDA toolkit, Clang's resource directory, irregfix's stub headers).
  std::vector<std::string> NotRewritten;
  // Each kernel's analysis may take BudgetFactor times the file's parse, and
  // at least BudgetFloorSeconds; past that the kernel is left as it is, with a
  // remark. A negative factor: no limit.
  double BudgetFactor = 3;
  double BudgetFloorSeconds = 2;
};

// A factory for the action; results land in *Results, one per parsed file.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newRewriteActionFactory(const RewriteOptions &Options, std::vector<FileResult> *Results);

} // namespace irregfix
