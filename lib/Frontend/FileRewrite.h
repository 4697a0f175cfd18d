// One parsed file through the pipeline: collect its program's kernels,
// launches and host calls (MainFile.h), decide every kernel's verdicts
// (Decide/DecideFile.h), say them (Remarks.h), then emit the edits: the
// strategies' kernels and launchers and the rewritten launches
// (StrategyEdits.h), the cache's upkeep (CacheEdits.h) and the runtime
// include (RuntimeInclude.h), into FileResult for the driver to write.
#pragma once

#include "Analysis/DeviceOnlyCode.h"
#include "Frontend/FileResult.h"
#include "Frontend/RewritableFiles.h"
#include "Frontend/RewriteAction.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

#include <memory>

namespace irregfix {

std::unique_ptr<clang::ASTConsumer> newFileRewrite(clang::CompilerInstance &CI, const RewriteOptions &Opts,
                                                   FileResult &Result, const RewritableFiles &Files,
                                                   const DeviceOnlyCode &DeviceOnly);

} // namespace irregfix
