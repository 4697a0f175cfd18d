#include "Analysis/Calls.h"

#include "clang/AST/Decl.h"

using namespace clang;

namespace irregfix {

CallKind classifyCall(const CallExpr *C, const SourceManager &SM, const FunctionDecl **Callee) {
  const FunctionDecl *F = C->getDirectCallee();
  *Callee = F;
  if (!F)
    return CallKind::Indirect;
  if (F->getBuiltinID() || SM.isInSystemHeader(SM.getExpansionLoc(F->getLocation())))
    return CallKind::Library;
  return F->isDefined() ? CallKind::Defined : CallKind::Unseen;
}

CallKind CallClassifier::classify(const CallExpr *C, const FunctionDecl **Callee) {
  const FunctionDecl *F = C->getDirectCallee();
  *Callee = F;
  if (!F)
    return CallKind::Indirect;
  auto [It, New] = Known.try_emplace(F, CallKind::Indirect);
  if (New)
    It->second = classifyCall(C, SM, Callee);
  return It->second;
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

bool cooperates(llvm::StringRef Name) {
  static const char *const Prefixes[] = {"__syncthreads", "__syncwarp", "__shfl",     "__ballot",
                                         "__any",         "__all",      "__activemask", "__match",
                                         "__reduce",      "__threadfence", "atomic",   "__barrier",
                                         "__nanosleep"};
  for (const char *P : Prefixes)
    if (Name.starts_with(P))
      return true;
  return false;
}

bool cooperativeCall(const FunctionDecl *F) {
  return cooperates(F->getName()) || inNamespace(F, "cooperative_groups");
}

} // namespace irregfix
