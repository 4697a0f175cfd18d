#include "Analysis/Shareability.h"
#include "Analysis/Calls.h"
#include "Analysis/KernelWalk.h"
#include "Analysis/Overloads.h"

#include "clang/AST/Attr.h"

using namespace clang;

namespace irregfix {

namespace {

// What the staged copy would collide with, in a kernel and the functions it
// calls: dynamic shared memory.
class Judge : public KernelJudge {
public:
  std::string variable(const VarDecl *V, const WalkPlace &) override {
    if (V->hasAttr<CUDASharedAttr>() && V->hasExternalStorage())
      return "it uses dynamic shared memory ('" + V->getNameAsString() + "')";
    return "";
  }

  // A body the analysis cannot see could declare dynamic shared memory.
  std::string call(const CallExpr *, CallKind Kind, const FunctionDecl *F, const WalkPlace &,
                   bool &Follow) override {
    Follow = true;
    return unfollowable(Kind, F);
  }
};

} // namespace

Shareability analyzeShareability(const KernelInfo &Info, ASTContext &Ctx) {
  Shareability S;
  auto No = [&](const std::string &Why) {
    S.NotBecause = Why;
    return S;
  };
  const Site *Found = nullptr;
  for (unsigned I = 0; I < Info.Sites.size() && !Found; ++I)
    if (Info.Sites[I].transformable() && Info.Sites[I].Pattern == kPatternNeighbors) {
      Found = &Info.Sites[I];
      S.SiteIndex = I;
    }
  if (!Found)
    return No("it has no transformed neighbour-list site");
  if (Found->remappedArrays().size() != 1)
    return No("its neighbour-list site remaps more than one array");
  if (Found->remappedArrays().front()->Fields.split())
    return No("its neighbour-list site reads structure fields through pieces");
  if (Info.Template || Info.Kernel->isTemplateInstantiation())
    return No("it is a template");
  // The runtime is given the transformed kernel's address, which an
  // overloaded name does not single out.
  if (kernelOverloadIndex(Info.Kernel) >= 0)
    return No("its name is overloaded");
  if (!Info.Chunks.Chunkable)
    return No(Info.Chunks.NotBecause);

  // The site's thread index is the 1-D global index, the arithmetic or a local
  // initialised with it and never written (a linear index of 2-D or 3-D ones
  // is not chunkable, checked above): thread t runs in block t / blockDim.x.
  Judge DynamicShared;
  if (std::string Why = walkKernel(Info.Kernel, DynamicShared, Ctx.getSourceManager()); !Why.empty())
    return No(Why);
  S.Shareable = true;
  return S;
}

} // namespace irregfix
