#include "Analysis/Overloads.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"

#include <algorithm>
#include <vector>

using namespace clang;

namespace irregfix {

namespace {

// The scope whose unqualified lookups see K: its own, left through anonymous
// and inline namespaces (their members are visible in the enclosing one).
const DeclContext *lookupScope(const FunctionDecl *K) {
  const DeclContext *DC = K->getDeclContext()->getRedeclContext();
  while (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
    if (!NS->isAnonymousNamespace() && !NS->isInline())
      break;
    DC = NS->getParent()->getRedeclContext();
  }
  return DC;
}

// Kernels named Name declared in DC or in anonymous namespaces inside it
// (inline namespaces' members are in DC's lookup already).
void collectKernels(const DeclContext *DC, DeclarationName Name, std::vector<const FunctionDecl *> &Out) {
  for (const NamedDecl *D : DC->getPrimaryContext()->lookup(Name))
    if (const FunctionDecl *F = D->getAsFunction(); F && F->hasAttr<CUDAGlobalAttr>())
      Out.push_back(F->getCanonicalDecl());
  const NamespaceDecl *Anonymous = nullptr;
  if (const auto *TU = dyn_cast<TranslationUnitDecl>(DC))
    Anonymous = TU->getAnonymousNamespace();
  else if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
    Anonymous = NS->getAnonymousNamespace();
  if (Anonymous)
    collectKernels(Anonymous, Name, Out);
}

} // namespace

int kernelOverloadIndex(const FunctionDecl *K) {
  if (const FunctionDecl *Pattern = K->getTemplateInstantiationPattern())
    K = Pattern;
  const FunctionDecl *Self = K->getCanonicalDecl();
  std::vector<const FunctionDecl *> Kernels;
  collectKernels(lookupScope(Self), Self->getDeclName(), Kernels);
  std::sort(Kernels.begin(), Kernels.end());
  Kernels.erase(std::unique(Kernels.begin(), Kernels.end()), Kernels.end());
  if (Kernels.size() < 2)
    return -1;
  // Declaration order (one file's locations encode in offset order).
  std::sort(Kernels.begin(), Kernels.end(), [](const FunctionDecl *A, const FunctionDecl *B) {
    return A->getLocation().getRawEncoding() < B->getLocation().getRawEncoding();
  });
  auto It = std::find(Kernels.begin(), Kernels.end(), Self);
  return It == Kernels.end() ? -1 : static_cast<int>(It - Kernels.begin());
}

} // namespace irregfix
