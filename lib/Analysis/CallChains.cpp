#include "Analysis/CallChains.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Calls.h"
#include "Analysis/DeviceOnlyCode.h"
#include "Analysis/Overloads.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <functional>

using namespace clang;

namespace irregfix {

namespace {

// Pointer parameters and by-value struct parameters of the caller, as the kernel names them.
using ParamMap = std::map<const ParmVarDecl *, ArrayRef>;

ArrayRef throughParams(const ParamMap *Caller, const ArrayRef &A) {
  if (!Caller) // the caller is the kernel
    return A;
  auto It = Caller->find(A.param());
  if (It == Caller->end())
    return ArrayRef();
  llvm::SmallVector<const FieldDecl *, 2> Fields = It->second.fields();
  Fields.append(A.fields().begin(), A.fields().end());
  return ArrayRef(It->second.param(), std::move(Fields));
}

// `s` or `s.a.b` with s a by-value struct parameter the caller does not assign.
ArrayRef structArgument(const Expr *E, const WriteSet &W) {
  llvm::SmallVector<const FieldDecl *, 2> Fields;
  E = strip(E);
  // A struct passed by value is copied: `s` is the copy constructor's argument.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E); CE && CE->getNumArgs() == 1 &&
                                                     CE->getConstructor()->isCopyOrMoveConstructor())
    E = strip(CE->getArg(0));
  for (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow(); ME = dyn_cast<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!F)
      return ArrayRef();
    Fields.insert(Fields.begin(), F);
    E = strip(ME->getBase());
  }
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  if (!P || !P->getType()->isRecordType() || W.writesScalar(P))
    return ArrayRef();
  return ArrayRef(P, std::move(Fields));
}

struct Level {
  ParamMap Params;
  std::set<const ParmVarDecl *> Thread;
  WriteSet Writes;
};

// How F's parameters stand for the kernel's values at call C, written in a
// function whose level is Caller (null: the kernel).
Level bind(const CallExpr *C, const FunctionDecl *F, const Level *Caller, const WriteSet &KernelWrites,
           const DeviceOnlyCode *DeviceOnly) {
  Level L;
  const WriteSet &CallerWrites = Caller ? Caller->Writes : KernelWrites;
  const std::vector<const Expr *> Args = callArguments(C, F);
  for (unsigned I = 0; I < F->getNumParams() && I < Args.size(); ++I) {
    const ParmVarDecl *P = F->getParamDecl(I);
    QualType T = P->getType();
    ArrayRef A;
    if (T->isPointerType())
      A = WriteSet::exactPointer(Args[I], CallerWrites);
    else if (T->isRecordType())
      A = structArgument(Args[I], CallerWrites);
    else if (T->isIntegerType() && isGlobalThreadIndex(Args[I], CallerWrites))
      L.Thread.insert(P);
    if (A)
      if (ArrayRef K = throughParams(Caller ? &Caller->Params : nullptr, A))
        L.Params[P] = K;
  }
  // The kernel's writes of the arrays F's parameters stand for are F's writes too.
  std::set<ArrayRef> Written;
  for (const auto &[P, K] : L.Params)
    for (const ArrayRef &W : KernelWrites.writtenArrays()) {
      if (W.param() != K.param() || W.fields().size() < K.fields().size() ||
          !std::equal(K.fields().begin(), K.fields().end(), W.fields().begin()))
        continue;
      llvm::SmallVector<const FieldDecl *, 2> Rest(W.fields().begin() + K.fields().size(), W.fields().end());
      Written.insert(ArrayRef(P, std::move(Rest)));
    }
  L.Writes = WriteSet::of(F, DeviceOnly).throughCall(KernelWrites, Written, L.Thread);
  return L;
}

std::string quotedName(const FunctionDecl *F) { return "'" + F->getNameAsString() + "'"; }

// Why F, reached by call C from Kernel, cannot have a copy written beside the kernel.
std::string cannotCopy(const FunctionDecl *F, const CallExpr *C, const FunctionDecl *Kernel, ASTContext &Ctx,
                       const DeviceOnlyCode *DeviceOnly) {
  const SourceManager &SM = Ctx.getSourceManager();
  const std::string Name = quotedName(F);
  if (isAnyMacro(C))
    return "the call of " + Name + " is written through a macro";
  if (isa<CXXMethodDecl>(F))
    return Name + " is a member function";
  if (F->isOverloadedOperator())
    return Name + " is an operator";
  if (F->isTemplated() || F->isTemplateInstantiation() || F->getPrimaryTemplate())
    return Name + " is a function template";
  if (F->isVariadic())
    return Name + " is variadic";
  if (llvm::any_of(F->parameters(), [](const ParmVarDecl *P) { return P->hasDefaultArg(); }))
    return Name + " has default arguments";
  if (!F->getDeclContext()->getRedeclContext()->Equals(Kernel->getDeclContext()->getRedeclContext()))
    return Name + " is declared in another scope than the kernel";
  if (!SM.isBeforeInTranslationUnit(F->getEndLoc(), Kernel->getBeginLoc()))
    return Name + " is defined after the kernel";
  if (isAnyMacro(F->getBody()))
    return Name + " is written through a macro";
  if (DeviceOnly && !DeviceOnly->within(F).empty())
    return Name + " has code only the device compilation sees (__CUDA_ARCH__)";
  return "";
}

class ChainFinder {
public:
  ChainFinder(const FunctionDecl *Kernel, ASTContext &Ctx)
      : Kernel(Kernel), Ctx(Ctx), Classifier(Ctx.getSourceManager()) {}

  void run() {
    std::vector<const FunctionDecl *> OnPath{Kernel};
    CallChain Empty;
    visit(Kernel, Empty, OnPath);
  }

  std::vector<CallChain> Chains;           // one a function, the first that reaches it
  std::map<const FunctionDecl *, unsigned> Calls; // call sites of each, over the functions visited
  std::set<const FunctionDecl *> Recursive;

private:
  void visit(const FunctionDecl *F, const CallChain &Chain, std::vector<const FunctionDecl *> &OnPath) {
    std::vector<const CallExpr *> Found;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || isa<LambdaExpr>(S)) // a lambda's calls are not the function's own
        return;
      if (const auto *C = dyn_cast<CallExpr>(S))
        Found.push_back(C);
      for (const Stmt *Child : S->children())
        Walk(Child);
    };
    Walk(F->getBody());
    for (const CallExpr *C : Found) {
      const FunctionDecl *Callee = nullptr;
      if (Classifier.classify(C, &Callee) != CallKind::Defined || !Callee->getDefinition() ||
          Callee->hasAttr<CUDAGlobalAttr>())
        continue;
      const FunctionDecl *Def = Callee->getDefinition();
      // A lambda's body is read where it is written (SiteFinder reports it).
      if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && M->getParent()->isLambda())
        continue;
      ++Calls[Def];
      if (llvm::is_contained(OnPath, Def)) {
        Recursive.insert(Def);
        continue;
      }
      if (!Seen.insert(Def).second)
        continue;
      CallChain Next = Chain;
      Next.Calls.push_back(C);
      Next.Functions.push_back(Def);
      Chains.push_back(Next);
      if (Next.Calls.size() < kMaxCallDepth) {
        OnPath.push_back(Def);
        visit(Def, Next, OnPath);
        OnPath.pop_back();
      }
    }
  }

  const FunctionDecl *Kernel;
  ASTContext &Ctx;
  CallClassifier Classifier;
  std::set<const FunctionDecl *> Seen;
};

} // namespace

ArrayRef BoundChain::kernelArray(const ArrayRef &A) const {
  if (!A)
    return ArrayRef();
  return throughParams(&Params, A);
}

const Expr *BoundChain::argumentFor(const ParmVarDecl *P) const {
  std::vector<const Expr *> Args = callArguments(Chain.Calls.back(), Chain.callee());
  unsigned I = P->getFunctionScopeIndex();
  return I < Args.size() ? Args[I] : nullptr;
}

std::vector<BoundChain> boundCallChains(const FunctionDecl *Kernel, const WriteSet &KernelWrites, ASTContext &Ctx,
                                        const DeviceOnlyCode *DeviceOnly) {
  ChainFinder Finder(Kernel, Ctx);
  if (Kernel->hasBody())
    Finder.run();
  std::vector<BoundChain> Out;
  for (CallChain &Chain : Finder.Chains) {
    BoundChain B;
    Level L;
    const Level *Caller = nullptr;
    for (size_t I = 0; I < Chain.Calls.size(); ++I) {
      const FunctionDecl *F = Chain.Functions[I];
      L = bind(Chain.Calls[I], F, Caller, KernelWrites, DeviceOnly);
      Caller = &L;
      if (!B.RefusedBecause.empty())
        continue;
      if (Finder.Recursive.count(F))
        B.RefusedBecause = quotedName(F) + " is recursive";
      else if (unsigned N = Finder.Calls[F]; N > 1)
        B.RefusedBecause = quotedName(F) + " is called at " + std::to_string(N) +
                           " places in the kernel and the functions it calls (sites in a called function are "
                           "rewritten where it is called once)";
      else
        B.RefusedBecause = cannotCopy(F, Chain.Calls[I], Kernel, Ctx, DeviceOnly);
    }
    if (B.RefusedBecause.empty() && (Kernel->isTemplated() || Kernel->isTemplateInstantiation()))
      B.RefusedBecause = "the kernel is a template (sites in called functions are rewritten in plain kernels)";
    B.Params = std::move(L.Params);
    B.ThreadParams = std::move(L.Thread);
    B.Writes = std::move(L.Writes);
    B.Chain = std::move(Chain);
    Out.push_back(std::move(B));
  }
  return Out;
}

std::string calleeCopyName(const FunctionDecl *F, const FunctionDecl *Kernel) {
  int Overload = kernelOverloadIndex(Kernel);
  return F->getNameAsString() + "_irregfix_" + Kernel->getNameAsString() +
         (Overload < 0 ? "" : "__" + std::to_string(Overload));
}

} // namespace irregfix
