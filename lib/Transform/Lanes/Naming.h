// Names shared by the lanes strategy's kernel-side and host-side rewriters
// (the in-kernel strategy's names, in InKernel/Naming.h, are used as they are).
#pragma once

#include "Analysis/RowReduction.h"

#include "clang/AST/Decl.h"

#include <string>

namespace irregfix::lanes {

inline std::string lanesKernelName(const clang::FunctionDecl *K) { return K->getNameAsString() + "_irregfix_lanes"; }
// The variant's parameter: the lanes a row and the original launch's threads (irregfix::Lanes).
inline std::string lanesParamName() { return "__irregfix_lanes"; }
// In the variant: the thread's global index, and its lane in the row's group.
inline std::string globalName() { return "__irregfix_g"; }
inline std::string laneName() { return "__irregfix_lane"; }
// Accumulator I's partial value in each lane.
inline std::string partialName(unsigned I, const RowAccumulator &A) {
  return "__irregfix_part" + std::to_string(I) + "_" + A.Var->getNameAsString();
}
// In order: the value lane l loaded of staged read I (RowReduction.h, Staged).
inline std::string stagedName(unsigned I) { return "__irregfix_loaded" + std::to_string(I); }
// In the launcher: the variant's configuration, and the copy the original
// writes in place of stored array I under IRREGFIX_VERIFY.
inline std::string launchName() { return "__irregfix_lanes_launch"; }
inline std::string referenceName(unsigned I) { return "__irregfix_reference" + std::to_string(I); }

} // namespace irregfix::lanes
