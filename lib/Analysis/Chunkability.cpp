#include "Analysis/Chunkability.h"
#include "Analysis/Calls.h"
#include "Analysis/KernelWalk.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>

using namespace clang;

namespace irregfix {

namespace {

// What tells a block how many blocks run with it, in a kernel and the
// functions it calls, and the kernel's own block-index reads.
class Judge : public KernelJudge {
public:
  // The kernel's `blockIdx.x` reads, and every blockIdx reference, by location
  // (the walk may meet one expression twice: syntactic and semantic forms).
  std::map<SourceLocation, const Expr *> XReads;
  std::set<SourceLocation> BlockRefs;

  std::string statement(const Stmt *S, const WalkPlace &At) override {
    if (const auto *E = dyn_cast<DeclRefExpr>(S)) {
      llvm::StringRef Name = E->getDecl()->getName();
      if (Name == "gridDim")
        return "it reads 'gridDim'";
      if (Name == "blockIdx" && At.Callee)
        return "it calls '" + At.Callee->getNameAsString() + "', which reads 'blockIdx'";
      // A lambda's or local class's body is a function of its own: a blockIdx
      // read there cannot take the chunk's offset, a parameter of the kernel
      // it need not capture.
      if (Name == "blockIdx" && At.Nested)
        return "it reads 'blockIdx' in a lambda or a local class";
      if (Name == "blockIdx")
        BlockRefs.insert(E->getLocation());
    }
    if ((isa<MemberExpr>(S) || isa<MSPropertyRefExpr>(S)) && !At.Callee &&
        isBuiltinIndexRead(cast<Expr>(S), "blockIdx", 'x'))
      XReads.emplace(S->getBeginLoc(), cast<Expr>(S));
    if (isa<GCCAsmStmt>(S))
      return "it contains inline assembly";
    return "";
  }

  std::string call(const CallExpr *, CallKind Kind, const FunctionDecl *F, const WalkPlace &,
                   bool &Follow) override {
    if (F && inNamespace(F, "cooperative_groups"))
      return "it calls '" + F->getNameAsString() + "' (cooperative groups)";
    Follow = true;
    return unfollowable(Kind, F);
  }
};

} // namespace

Chunkability analyzeChunkability(const KernelInfo &Info, ASTContext &Ctx) {
  Chunkability C;
  if (!Info.hasTransformableSite()) {
    C.NotBecause = "it has no transformed site";
    return C;
  }
  // A chunk is a run of blocks in x, and its copies a range of thread
  // indices: a linear index of 2-D or 3-D indices is no such range.
  for (const Site &S : Info.Sites)
    if (S.transformable() && !S.ActiveExtents.empty()) {
      C.NotBecause = "its threads are numbered from 2-D or 3-D indices (i + nx * j): a chunk of blocks is not a "
                     "range of them";
      return C;
    }
  Judge Scan;
  if (std::string Why = walkKernel(Info.Kernel, Scan, Ctx.getSourceManager()); !Why.empty()) {
    C.NotBecause = Why;
    return C;
  }
  // Every blockIdx reference must be the base of a `blockIdx.x` read written
  // out in the kernel's text, which the rewrite can offset.
  for (SourceLocation L : Scan.BlockRefs) {
    if (L.isMacroID()) {
      C.NotBecause = "it reads 'blockIdx' through a macro";
      return C;
    }
    if (!Scan.XReads.count(L)) {
      C.NotBecause = "it uses 'blockIdx' other than as 'blockIdx.x'";
      return C;
    }
  }
  for (auto &[Loc, E] : Scan.XReads)
    C.BlockReads.push_back(E);
  C.Chunkable = true;
  return C;
}

} // namespace irregfix
