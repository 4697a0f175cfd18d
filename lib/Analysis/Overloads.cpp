#include "Analysis/Overloads.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"

#include <algorithm>
#include <vector>

using namespace clang;

namespace irregfix {

int kernelOverloadIndex(const FunctionDecl *K) {
  if (const FunctionDecl *Pattern = K->getTemplateInstantiationPattern())
    K = Pattern;
  const FunctionDecl *Self = K->getCanonicalDecl();
  std::vector<const FunctionDecl *> Kernels;
  for (const NamedDecl *D : Self->getDeclContext()->getRedeclContext()->lookup(Self->getDeclName()))
    if (const FunctionDecl *F = D->getAsFunction(); F && F->hasAttr<CUDAGlobalAttr>())
      Kernels.push_back(F->getCanonicalDecl());
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
