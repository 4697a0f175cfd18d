#include "Analysis/Shareability.h"
#include "Analysis/Calls.h"
#include "Analysis/Overloads.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

using namespace clang;

namespace irregfix {

namespace {

// Walks a kernel and the functions it calls for what the staged copy would
// collide with: dynamic shared memory.
class Scan : public RecursiveASTVisitor<Scan> {
public:
  explicit Scan(const SourceManager &SM) : SM(SM) {}

  std::string Why;

  void walk(const FunctionDecl *F) {
    if (!F || !Seen.insert(F->getCanonicalDecl()).second || !Why.empty())
      return;
    if (const FunctionDecl *Def = F->getDefinition(); Def && Def->hasBody())
      TraverseStmt(Def->getBody());
  }

  bool TraverseStmt(Stmt *S) { return Why.empty() && RecursiveASTVisitor::TraverseStmt(S); }

  bool VisitVarDecl(VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>() && V->hasExternalStorage())
      Why = "it uses dynamic shared memory ('" + V->getNameAsString() + "')";
    return Why.empty();
  }

  // A body the analysis cannot see could declare dynamic shared memory.
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = nullptr;
    const CallKind Kind = classifyCall(C, SM, &F);
    Why = unfollowable(Kind, F);
    if (Kind == CallKind::Defined && Why.empty())
      walk(F);
    return Why.empty();
  }

private:
  const SourceManager &SM;
  std::set<const FunctionDecl *> Seen;
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
    if (Info.Sites[I].transformable() && Info.Sites[I].Pattern == SitePattern::Neighbors) {
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
  // initialised with it and never written (isGlobalThreadIndex, which the site
  // finder required): thread t runs in block t / blockDim.x.
  Scan Walk(Ctx.getSourceManager());
  Walk.walk(Info.Kernel);
  if (!Walk.Why.empty())
    return No(Walk.Why);
  S.Shareable = true;
  return S;
}

} // namespace irregfix
