#include "Analysis/Calls.h"

#include "clang/AST/Decl.h"

using namespace clang;

namespace irregfix {

CallKind classifyCall(const CallExpr *C, const SourceManager &SM, const FunctionDecl **Callee) {
  const FunctionDecl *F = C->getDirectCallee();
  *Callee = F;
  if (!F)
    return CallKind::Indirect;
  if (F->getBuiltinID() || SM.isInSystemHeader(F->getLocation()))
    return CallKind::Library;
  return F->isDefined() ? CallKind::Defined : CallKind::Unseen;
}

std::string unfollowable(CallKind Kind, const FunctionDecl *Callee) {
  if (Kind == CallKind::Indirect)
    return "it makes an indirect call";
  if (Kind == CallKind::Unseen)
    return "it calls '" + Callee->getNameAsString() + "', whose body the analysis cannot see";
  return "";
}

bool inNamespace(const Decl *D, llvm::StringRef NS) {
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(C); N && N->getName() == NS)
      return true;
  return false;
}

} // namespace irregfix
