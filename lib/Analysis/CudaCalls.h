// What the analyses need to know about CUDA's own functions: which ones let
// threads observe one another (barriers, warp intrinsics, atomics, fences).
#pragma once

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringRef.h"

namespace irregfix {

// Names of CUDA operations through which threads observe one another.
inline bool cooperates(llvm::StringRef Name) {
  static const char *const Prefixes[] = {"__syncthreads", "__syncwarp", "__shfl",     "__ballot",
                                         "__any",         "__all",      "__activemask", "__match",
                                         "__reduce",      "__threadfence", "atomic",   "__barrier",
                                         "__nanosleep"};
  for (const char *P : Prefixes)
    if (Name.starts_with(P))
      return true;
  return false;
}

inline bool inNamespace(const clang::Decl *D, llvm::StringRef NS) {
  for (const clang::DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *N = llvm::dyn_cast<clang::NamespaceDecl>(C); N && N->getName() == NS)
      return true;
  return false;
}

// A call to F makes threads cooperate: a name above or cooperative_groups.
inline bool cooperativeCall(const clang::FunctionDecl *F) {
  return cooperates(F->getName()) || inNamespace(F, "cooperative_groups");
}

} // namespace irregfix
