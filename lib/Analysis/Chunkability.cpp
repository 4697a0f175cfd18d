#include "Analysis/Chunkability.h"
#include "Analysis/Calls.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>

using namespace clang;

namespace irregfix {

namespace {

// Walks a kernel and the functions it calls, looking for what tells a block
// how many blocks run with it, and for the kernel's own block-index reads.
class BlockScan : public RecursiveASTVisitor<BlockScan> {
public:
  explicit BlockScan(const SourceManager &SM) : SM(SM) {}

  std::string Why;
  // The kernel's `blockIdx.x` reads, and every blockIdx reference, by location
  // (the visitor may meet one expression twice: syntactic and semantic forms).
  std::map<SourceLocation, const Expr *> XReads;
  std::set<SourceLocation> BlockRefs;

  void walk(const FunctionDecl *F, bool IsKernel) {
    if (!F || !Seen.insert(F->getCanonicalDecl()).second || !Why.empty())
      return;
    const FunctionDecl *Def = F->getDefinition();
    if (!Def || !Def->hasBody())
      return;
    const FunctionDecl *Saved = Current;
    Current = IsKernel ? nullptr : Def;
    TraverseStmt(Def->getBody());
    Current = Saved;
  }

  bool TraverseStmt(Stmt *S) {
    if (!Why.empty())
      return false;
    return RecursiveASTVisitor::TraverseStmt(S);
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    llvm::StringRef Name = E->getDecl()->getName();
    if (Name == "gridDim")
      Why = "it reads 'gridDim'";
    else if (Name == "blockIdx" && Current)
      Why = "it calls '" + Current->getNameAsString() + "', which reads 'blockIdx'";
    else if (Name == "blockIdx" && Nested)
      Why = "it reads 'blockIdx' in a lambda or a local class";
    else if (Name == "blockIdx")
      BlockRefs.insert(E->getLocation());
    return Why.empty();
  }

  // A lambda's or local class's body in the kernel's text is a function of its
  // own: a blockIdx read there cannot take the chunk's offset, a parameter of
  // the kernel it need not capture.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++Nested;
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(L);
    --Nested;
    return R;
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl *D) {
    ++Nested;
    bool R = RecursiveASTVisitor::TraverseCXXRecordDecl(D);
    --Nested;
    return R;
  }

  bool VisitMSPropertyRefExpr(MSPropertyRefExpr *E) { return noteRead(E); }
  bool VisitMemberExpr(MemberExpr *E) { return noteRead(E); }

  bool VisitGCCAsmStmt(GCCAsmStmt *) {
    Why = "it contains inline assembly";
    return false;
  }

  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = nullptr;
    const CallKind Kind = classifyCall(C, SM, &F);
    if (F && inNamespace(F, "cooperative_groups"))
      Why = "it calls '" + F->getNameAsString() + "' (cooperative groups)";
    else
      Why = unfollowable(Kind, F);
    if (Kind != CallKind::Defined || !Why.empty())
      return Why.empty();
    walk(F, false);
    return Why.empty();
  }

private:
  bool noteRead(Expr *E) {
    if (!Current && isBuiltinIndexRead(E, "blockIdx", 'x'))
      XReads.emplace(E->getBeginLoc(), E);
    return true;
  }

  const SourceManager &SM;
  const FunctionDecl *Current = nullptr; // the callee being walked; null in the kernel
  unsigned Nested = 0;                    // inside a lambda or local class of the kernel
  std::set<const FunctionDecl *> Seen;
};

} // namespace

Chunkability analyzeChunkability(const KernelInfo &Info, ASTContext &Ctx) {
  Chunkability C;
  if (!Info.hasTransformableSite()) {
    C.NotBecause = "it has no transformed site";
    return C;
  }
  BlockScan Scan(Ctx.getSourceManager());
  Scan.walk(Info.Kernel, true);
  if (!Scan.Why.empty()) {
    C.NotBecause = Scan.Why;
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
