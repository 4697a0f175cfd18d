// Emit, the host's part: keeping the cache sound once launches use it
// (Transform/Invalidation.h). Every host call that writes device memory gets
// an invalidation, every call of code the tool cannot see a bracket, and every
// function that reaches a rewritten launch an entry guard; remarks say where
// copies are dropped, warnings where a write cannot be instrumented.
#pragma once

#include "Analysis/DeviceOnlyCode.h"
#include "Frontend/FileEdits.h"
#include "Frontend/MainFile.h"
#include "Frontend/FileResult.h"
#include "Frontend/StrategyEdits.h"

#include "clang/AST/ASTContext.h"

namespace irregfix {

// False when an edit fails.
bool addCacheEdits(const MainFile &File, const RewrittenLaunches &Launches, const DeviceOnlyCode &DeviceOnly,
                   clang::ASTContext &Ctx, FileEdits &Edits, Messages &Msg, FileResult &Result);

} // namespace irregfix
