// Names shared by the hoisted strategy's kernel-side and host-side rewriters
// (the in-kernel strategy's names, in InKernel/Naming.h, are used as they are).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <string>

namespace irregfix::hoisted {

inline std::string hoistedKernelName(const clang::FunctionDecl *K) {
  return K->getNameAsString() + "_irregfix_hoisted";
}
// The kernel parameter saying which slice of iterations a launch runs.
inline std::string stepName() { return "__irregfix_step"; }
// The per-thread buffer carrying live variable V between launches.
inline std::string liveBufferName(const clang::VarDecl *V) { return "__irregfix_live_" + V->getNameAsString(); }
// V's type as the buffer's element type.
inline std::string liveType(const clang::VarDecl *V, const clang::ASTContext &Ctx) {
  return V->getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
}

} // namespace irregfix::hoisted
