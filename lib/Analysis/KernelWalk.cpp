#include "Analysis/KernelWalk.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <set>

using namespace clang;

namespace irregfix {

namespace {

class Walker : public RecursiveASTVisitor<Walker> {
public:
  Walker(KernelJudge &Judge, const SourceManager &SM) : Judge(Judge), Calls(SM) {}

  std::string Why;
  std::set<const FunctionDecl *> Seen; // by canonical declaration

  void walk(const Stmt *S) {
    if (S && Why.empty())
      TraverseStmt(const_cast<Stmt *>(S));
  }

  bool TraverseStmt(Stmt *S) {
    if (!Why.empty())
      return false;
    if (!S || !Judge.enters(S))
      return true;
    if (stop(Judge.statement(S, At)))
      return false;
    if (const auto *C = dyn_cast<CallExpr>(S); C && !call(C))
      return false;
    return RecursiveASTVisitor::TraverseStmt(S);
  }

  bool VisitVarDecl(VarDecl *V) { return !stop(Judge.variable(V, At)); }

  // A lambda's or local class's body is a function of its own, in the text of
  // the one around it.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++At.Nested;
    const bool Went = RecursiveASTVisitor::TraverseLambdaExpr(L);
    --At.Nested;
    return Went;
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl *D) {
    ++At.Nested;
    const bool Went = RecursiveASTVisitor::TraverseCXXRecordDecl(D);
    --At.Nested;
    return Went;
  }

private:
  bool call(const CallExpr *C) {
    const FunctionDecl *F = nullptr;
    const CallKind Kind = Calls.classify(C, &F);
    bool Follow = false;
    if (stop(Judge.call(C, Kind, F, At, Follow)))
      return false;
    if (Follow && Kind == CallKind::Defined && F && Seen.insert(F->getCanonicalDecl()).second)
      if (const FunctionDecl *Def = F->getDefinition(); Def && Def->hasBody()) {
        const WalkPlace Saved = At;
        At = WalkPlace{Def, 0};
        walk(Def->getBody());
        At = Saved;
      }
    return Why.empty();
  }

  bool stop(std::string Reason) {
    if (Reason.empty())
      return false;
    Why = std::move(Reason);
    return true;
  }

  KernelJudge &Judge;
  CallClassifier Calls;
  WalkPlace At;
};

} // namespace

std::string walkKernel(const FunctionDecl *Kernel, KernelJudge &Judge, const SourceManager &SM) {
  Walker W(Judge, SM);
  W.Seen.insert(Kernel->getCanonicalDecl());
  if (const FunctionDecl *Def = Kernel->getDefinition(); Def && Def->hasBody())
    W.walk(Def->getBody());
  return W.Why;
}

std::string walkCode(llvm::ArrayRef<const Stmt *> Code, KernelJudge &Judge, const SourceManager &SM) {
  Walker W(Judge, SM);
  for (const Stmt *S : Code)
    W.walk(S);
  return W.Why;
}

} // namespace irregfix
