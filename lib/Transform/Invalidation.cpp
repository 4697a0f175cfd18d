#include "Transform/Invalidation.h"
#include "Analysis/WriteSet.h"
#include "Transform/SourceText.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

#include <map>

using namespace clang;

namespace irregfix {

std::vector<WriteTarget> runtimeCallTargets(const CallExpr *Call) {
  const FunctionDecl *F = Call->getDirectCallee();
  if (!F || !F->getIdentifier() || Call->getNumArgs() == 0)
    return {};
  StringRef Name = F->getName();
  bool Writes = (Name.starts_with("cudaMemcpy") && !Name.contains("ToSymbol") &&
                 !Name.contains("ToArray") && Name != "cudaMemcpy3D" && Name != "cudaMemcpy3DAsync") ||
                Name.starts_with("cudaMemset") || Name == "cudaFree" || Name == "cudaFreeAsync";
  if (!Writes || !Call->getArg(0)->IgnoreImpCasts()->getType()->isPointerType())
    return {};
  // A device-to-host copy writes host memory, which no site reads.
  for (const Expr *Arg : Call->arguments())
    if (const auto *DR = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts()))
      if (DR->getDecl()->getName() == "cudaMemcpyDeviceToHost")
        return {};
  return {WriteTarget{Call->getArg(0), ""}};
}

std::vector<WriteTarget> launchTargets(const CallExpr *Launch, WriteSets &Writes) {
  std::vector<WriteTarget> Out;
  const FunctionDecl *K = Launch->getDirectCallee();
  const FunctionDecl *Def = K ? K->getDefinition() : nullptr;
  const WriteSet *W = Def ? &Writes.of(Def) : nullptr;
  bool Unknown = !W || W->hasUntracedWrite();
  for (unsigned I = 0; I < Launch->getNumArgs(); ++I) {
    const Expr *Arg = Launch->getArg(I);
    QualType T = Arg->IgnoreImpCasts()->getType();
    const ParmVarDecl *P = Def && I < Def->getNumParams() ? Def->getParamDecl(I) : nullptr;
    if (T->isPointerType() && !T->getPointeeType().isConstQualified() &&
        (Unknown || (P && W->writesThrough(ArrayRef(P)))))
      Out.push_back({Arg, ""});
    if (!P || Unknown)
      continue;
    // Pointer fields of a by-value struct argument the kernel writes through.
    for (const ArrayRef &A : W->writtenArrays())
      if (A.param() == P && A.isField())
        Out.push_back({Arg, A.spelling().substr(P->getName().size())});
  }
  return Out;
}

namespace {

// Where an invalidation of a write inside E goes: before the full statement
// holding it, and whether that statement must be wrapped in braces.
struct Placement {
  const Stmt *Statement = nullptr;
  bool NeedsBraces = false;
  std::string Error;
};

Placement placementOf(const Expr *E, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  DynTypedNode Cur = DynTypedNode::create(*E);
  for (int Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(Cur);
    if (Parents.empty())
      return {nullptr, false, "no enclosing statement"};
    DynTypedNode ParentNode = Parents[0];
    const Stmt *P = ParentNode.get<Stmt>();
    const Stmt *C = Cur.get<Stmt>();
    if (!P) {
      // `cudaError_t e = cudaMemcpy(...)`: go on from the variable to its DeclStmt.
      if (!ParentNode.get<VarDecl>())
        return {nullptr, false, "not inside a function body"};
      Cur = ParentNode;
      continue;
    }
    // A statement inside a macro body (CUDA_CHECK's do-while) is placed as the
    // whole macro invocation: keep going until the statement maps to the file.
    bool InFile = C && fileRange(C->getSourceRange(), SM, LO).isValid();
    auto IsBody = [&](const Stmt *Body) { return Body == C; };
    if (InFile) {
      if (isa<CompoundStmt>(P))
        return {C, false, ""};
      if (const auto *If = dyn_cast<IfStmt>(P); If && (IsBody(If->getThen()) || IsBody(If->getElse())))
        return {C, true, ""};
      if (const auto *For = dyn_cast<ForStmt>(P); For && IsBody(For->getBody()))
        return {C, true, ""};
      if (const auto *W = dyn_cast<WhileStmt>(P); W && IsBody(W->getBody()))
        return {C, true, ""};
      if (const auto *Do = dyn_cast<DoStmt>(P); Do && IsBody(Do->getBody()))
        return {C, true, ""};
      if (isa<SwitchCase>(P) || isa<LabelStmt>(P))
        return {C, true, ""};
    }
    if (const auto *For = dyn_cast<ForStmt>(P); For && C && (C == For->getCond() || C == For->getInc()))
      return {nullptr, false, "the write is in a loop condition or increment"};
    if (const auto *W = dyn_cast<WhileStmt>(P); W && C == W->getCond())
      return {nullptr, false, "the write is in a loop condition"};
    if (const auto *Do = dyn_cast<DoStmt>(P); Do && C == Do->getCond())
      return {nullptr, false, "the write is in a loop condition"};
    Cur = ParentNode;
  }
  return {nullptr, false, "the statement is nested too deeply"};
}

} // namespace

InvalidationEdits invalidations(const std::vector<HostWrite> &Writes, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  InvalidationEdits Out;
  // Statement → (braces?, calls) in source order.
  std::map<const Stmt *, std::pair<bool, std::string>> ByStatement;
  std::vector<const Stmt *> Order;
  for (const HostWrite &W : Writes) {
    Placement P = placementOf(W.Call, Ctx);
    if (!P.Statement) {
      Out.Skipped.push_back({W.Call, P.Error});
      continue;
    }
    std::string Calls;
    for (const WriteTarget &Target : W.Targets) {
      const Expr *T = Target.Arg;
      std::string Text = sourceText(T->getSourceRange(), SM, LO);
      if (Text.empty()) {
        Out.Skipped.push_back({T, "the pointer is written through a macro"});
        continue;
      }
      if (T->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false)) {
        Out.Skipped.push_back({T, "the pointer expression has side effects"});
        continue;
      }
      if (!Target.Member.empty()) {
        bool Plain = llvm::all_of(Text, [](char C) { return isalnum(C) || C == '_'; });
        Text = (Plain ? Text : "(" + Text + ")") + Target.Member;
      }
      Calls += std::string(W.Frees ? "irregfix_release(" : "irregfix_invalidate(") + Text + "); ";
    }
    if (Calls.empty())
      continue;
    auto [It, New] = ByStatement.try_emplace(P.Statement, P.NeedsBraces, "");
    if (New)
      Order.push_back(P.Statement);
    if (It->second.second.find(Calls) == std::string::npos)
      It->second.second += Calls;
  }
  for (const Stmt *S : Order) {
    auto &[Braces, Calls] = ByStatement[S];
    CharSourceRange R = fileRange(S->getSourceRange(), SM, LO);
    if (R.isInvalid()) {
      Out.Skipped.push_back({dyn_cast<Expr>(S), "the statement is produced by a macro"});
      continue;
    }
    if (!Braces) {
      std::string Indent = indentationAt(R.getBegin(), SM);
      std::string Text = Calls;
      Text.pop_back(); // trailing space
      Out.Edits.emplace_back(SM, R.getBegin(), 0, Text + "\n" + Indent);
      continue;
    }
    // `if (c) cudaMemcpy(...);` → `if (c) { irregfix_invalidate(p); cudaMemcpy(...); }`
    SourceLocation End = R.getEnd();
    SourceLocation LastToken = SM.getExpansionRange(S->getEndLoc()).getEnd();
    SourceLocation AfterSemi = Lexer::findLocationAfterToken(LastToken, tok::semi, SM, LO, false);
    if (AfterSemi.isValid())
      End = AfterSemi;
    Out.Edits.emplace_back(SM, R.getBegin(), 0, "{ " + Calls);
    Out.Edits.emplace_back(SM, End, 0, " }");
  }
  return Out;
}

} // namespace irregfix
