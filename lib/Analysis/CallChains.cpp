#include "Analysis/CallChains.h"
#include "Analysis/ActiveThreads.h"
#include "Analysis/AstUtil.h"
#include "Analysis/Calls.h"
#include "Analysis/DeviceOnlyCode.h"
#include "Analysis/Overloads.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <functional>
#include <optional>

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
  // `t->perm` with t bound to the kernel's pointer parameter `tab`: `tab->perm`.
  // Through a pointer field of a struct (`g.tab->perm`) the launch cannot name it.
  if (A.isPointeeMember())
    return It->second.isField() ? ArrayRef() : ArrayRef::memberOfPointee(It->second.param(), A.fields().front());
  // A parameter given the kernel's `tab->perm` is that array; it has no fields.
  if (It->second.isPointeeMember())
    return A.isField() ? ArrayRef() : It->second;
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

// The array a local pointer argument is exactly when every value it is given
// is that array itself, never stepped (`const int *v; ... v = x;`, or `v = x`
// in each branch): bound as one initialised with it would be. Else none.
ArrayRef assignedExactly(const Expr *Arg, const WriteSet &W) {
  const VarDecl *V = refToVar(strip(Arg));
  if (!V || !V->isLocalVarDecl() || !V->getType()->isPointerType())
    return ArrayRef();
  const PointerChanges Changes = pointerChanges(V);
  if (Changes.Other || Changes.Stepped)
    return ArrayRef();
  std::vector<const Expr *> Values = Changes.Assigned;
  if (V->hasInit())
    Values.push_back(V->getInit());
  ArrayRef Same;
  for (const Expr *Value : Values) {
    ArrayRef A = WriteSet::exactPointer(Value, W);
    if (!A || (Same && A != Same))
      return ArrayRef();
    Same = A;
  }
  return Same;
}

struct Level {
  ParamMap Params;
  std::set<const ParmVarDecl *> Thread;
  ParamSpaces Spaces;
  std::map<const ParmVarDecl *, OffsetBinding> Offsets;
  std::map<const ParmVarDecl *, std::string> Unbound; // BoundChain::UnboundBecause
  WriteSet Writes;
};

std::string quotedName(const FunctionDecl *F) { return "'" + F->getNameAsString() + "'"; }

// What pointer argument Arg, written in CallerFn (whose level is Caller, null:
// the kernel), is when it binds its parameter to no kernel array, or "".
std::string unboundArgument(const Expr *Arg, const FunctionDecl *CallerFn, const Level *Caller,
                            const WriteSet &CallerWrites) {
  const Expr *S = strip(Arg);
  if (S->isNullPointerConstant(CallerFn->getASTContext(), Expr::NPC_ValueDependentIsNotNull))
    return "a null pointer";
  if (const auto *ME = dyn_cast<MemberExpr>(S))
    if (ArrayRef M = WriteSet::pointeeMember(ME, CallerWrites); M && M.isMultiDimensional())
      return "it points to the rows of " + M.quoted() +
             ", an array of several dimensions (a copy of it is read where each of its dimensions is subscripted)";
  const auto *DR = dyn_cast<DeclRefExpr>(S);
  if (!DR)
    return "";
  if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl())) {
    if (CallerWrites.writesScalar(P))
      return "'" + P->getNameAsString() + "' is a parameter " + quotedName(CallerFn) + " assigns";
    if (Caller) // the caller's own parameter, unbound for the same reason
      if (auto It = Caller->Unbound.find(P); It != Caller->Unbound.end())
        return It->second;
    return "";
  }
  const auto *V = dyn_cast<VarDecl>(DR->getDecl());
  if (!V || !V->isLocalVarDecl())
    return "";
  const PointerInto Into = pointerInto(S, CallerWrites, Caller ? &Caller->Spaces : nullptr);
  // A local that points into the caller's parameter, itself bound to nothing.
  if (Caller && Into.Within && Into.Within.fields().empty())
    if (auto It = Caller->Unbound.find(Into.Within.param()); It != Caller->Unbound.end())
      return It->second;
  if (!Into.Why.empty())
    return "'" + V->getNameAsString() + "' is " + Into.Why;
  if (V->hasInit() && isa<ConditionalOperator>(strip(V->getInit())))
    return "'" + V->getNameAsString() + "' is either of two pointers, chosen in " + quotedName(CallerFn);
  return "";
}

// How pointer argument Arg, written in a function whose level is Caller (null:
// the kernel), points into a kernel array at an offset, if it does.
std::optional<OffsetBinding> offsetArgument(const Expr *Arg, const Level *Caller, const WriteSet &CallerWrites) {
  const PointerInto Into = pointerInto(Arg, CallerWrites, Caller ? &Caller->Spaces : nullptr);
  // Somewhere in an array, at an offset not followed: reads through it are
  // still reads of that array, for the hazards the kernel's writes make.
  if (Into.Within) {
    ArrayRef K = throughParams(Caller ? &Caller->Params : nullptr, Into.Within);
    if (!K && Caller && Into.Within.fields().empty())
      if (auto It = Caller->Offsets.find(Into.Within.param()); It != Caller->Offsets.end())
        K = It->second.Array;
    if (!K)
      return std::nullopt;
    OffsetBinding B;
    B.Array = K;
    const Expr *S = strip(Arg);
    const auto *DR = dyn_cast<DeclRefExpr>(S);
    B.NotFollowed = (DR ? "'" + DR->getDecl()->getNameAsString() + "' is " : std::string()) + Into.Why;
    return B;
  }
  if (Into.Array && !Into.Offsets.empty()) {
    ArrayRef K = throughParams(Caller ? &Caller->Params : nullptr, Into.Array);
    if (!K && Caller && Into.Array.fields().empty())
      if (auto It = Caller->Offsets.find(Into.Array.param()); It != Caller->Offsets.end())
        K = It->second.Array; // an offset added to an offset
    if (!K)
      return std::nullopt;
    OffsetBinding B;
    B.Array = K;
    B.InKernel = !Caller;
    if (B.InKernel)
      B.Offsets = Into.Offsets;
    return B;
  }
  // The caller's own offset parameter, passed on.
  ArrayRef A = WriteSet::exactPointer(Arg, CallerWrites);
  if (Caller && A && A.fields().empty())
    if (auto It = Caller->Offsets.find(A.param()); It != Caller->Offsets.end()) {
      OffsetBinding B = It->second;
      B.Offsets.clear();
      B.InKernel = false;
      return B;
    }
  return std::nullopt;
}

// How F's parameters stand for the kernel's values at call C, written in
// CallerFn, whose level is Caller (null: the kernel).
Level bind(const CallExpr *C, const FunctionDecl *F, const FunctionDecl *CallerFn, const Level *Caller,
           const WriteSet &KernelWrites, const DeviceOnlyCode *DeviceOnly) {
  Level L;
  const WriteSet &CallerWrites = Caller ? Caller->Writes : KernelWrites;
  const std::vector<const Expr *> Args = callArguments(C, F);
  for (unsigned I = 0; I < F->getNumParams() && I < Args.size(); ++I) {
    const ParmVarDecl *P = F->getParamDecl(I);
    QualType T = P->getType();
    ArrayRef A;
    // A pointer given a member of several dimensions points to its rows, which
    // the function's subscripts do not read as the flat array's elements.
    if (T->isPointerType()) {
      A = WriteSet::exactPointer(Args[I], CallerWrites);
      if (!A)
        A = assignedExactly(Args[I], CallerWrites);
      if (A.isMultiDimensional())
        A = ArrayRef();
    } else if (T->isRecordType())
      A = structArgument(Args[I], CallerWrites);
    else if (T->isIntegerType() && isGlobalThreadIndex(Args[I], CallerWrites))
      L.Thread.insert(P);
    if (A)
      if (ArrayRef K = throughParams(Caller ? &Caller->Params : nullptr, A)) {
        L.Params[P] = K;
        continue;
      }
    const ParamSpaces *CallerSpaces = Caller ? &Caller->Spaces : nullptr;
    MemorySpace Space = MemorySpace::Device;
    if (T->isPointerType())
      Space = pointerInto(Args[I], CallerWrites, CallerSpaces).Space;
    else if (T->isReferenceType())
      Space = objectSpace(Args[I], CallerWrites, CallerSpaces);
    if (Space != MemorySpace::Device)
      L.Spaces[P] = Space;
    else if (T->isPointerType()) {
      if (std::optional<OffsetBinding> B = offsetArgument(Args[I], Caller, CallerWrites))
        L.Offsets[P] = *B;
      else if (std::string Why = unboundArgument(Args[I], CallerFn, Caller, CallerWrites); !Why.empty())
        L.Unbound[P] = Why;
    }
  }
  // The kernel's writes of the arrays F's parameters stand for are F's writes too.
  std::set<ArrayRef> Written;
  for (const auto &[P, K] : L.Params) {
    if (K.isPointeeMember()) { // written with the struct it lies in
      if (KernelWrites.writesThrough(K))
        Written.insert(ArrayRef(P));
      continue;
    }
    for (const ArrayRef &W : KernelWrites.writtenArrays()) {
      if (W.param() != K.param() || W.fields().size() < K.fields().size() ||
          !std::equal(K.fields().begin(), K.fields().end(), W.fields().begin()))
        continue;
      llvm::SmallVector<const FieldDecl *, 2> Rest(W.fields().begin() + K.fields().size(), W.fields().end());
      Written.insert(ArrayRef(P, std::move(Rest)));
    }
  }
  L.Writes = WriteSet::of(F, DeviceOnly).throughCall(KernelWrites, Written, L.Thread);
  return L;
}

bool isPointerLike(const ParmVarDecl *P) { return P->getType()->isPointerType() || P->getType()->isReferenceType(); }

// F's pointer and reference parameters whose memory is not the same at every
// call of F as at the chain's (whose binding is Bound): all of them where F is
// called from another function than the chain's caller CallerFn (at level
// Caller, null: the kernel); where F calls itself, those it does not pass on
// unchanged; where CallerFn calls it again, those that call binds otherwise
// (another space, array, or offset as written).
std::set<const ParmVarDecl *> boundUnlike(const FunctionDecl *F, const CallExpr *ChainCall,
                                          const FunctionDecl *CallerFn, const Level *Caller, const Level &Bound,
                                          const std::vector<std::pair<const CallExpr *, const FunctionDecl *>> &Calls,
                                          const WriteSet &KernelWrites, const DeviceOnlyCode *DeviceOnly,
                                          const ASTContext &Ctx) {
  std::set<const ParmVarDecl *> Unlike;
  auto All = [&] {
    for (const ParmVarDecl *P : F->parameters())
      if (isPointerLike(P))
        Unlike.insert(P);
  };
  for (const auto &[C, In] : Calls) {
    if (C == ChainCall)
      continue;
    if (In == F) {
      const std::vector<const Expr *> Args = callArguments(C, F);
      for (unsigned I = 0; I < F->getNumParams(); ++I) {
        const ParmVarDecl *P = F->getParamDecl(I);
        if (!isPointerLike(P))
          continue;
        const auto *DR = I < Args.size() ? dyn_cast<DeclRefExpr>(strip(Args[I])) : nullptr;
        if (!DR || DR->getDecl() != P)
          Unlike.insert(P);
      }
      continue;
    }
    if (In != CallerFn) {
      All();
      continue;
    }
    const Level Other = bind(C, F, CallerFn, Caller, KernelWrites, DeviceOnly);
    for (const ParmVarDecl *P : F->parameters()) {
      if (!isPointerLike(P))
        continue;
      auto S = Bound.Spaces.find(P), OS = Other.Spaces.find(P);
      if ((S == Bound.Spaces.end()) != (OS == Other.Spaces.end()) ||
          (S != Bound.Spaces.end() && S->second != OS->second)) {
        Unlike.insert(P);
        continue;
      }
      auto O = Bound.Offsets.find(P), OO = Other.Offsets.find(P);
      if ((O == Bound.Offsets.end()) != (OO == Other.Offsets.end())) {
        Unlike.insert(P);
        continue;
      }
      if (O == Bound.Offsets.end())
        continue;
      const OffsetBinding &A = O->second, &B = OO->second;
      bool Same = A.Array == B.Array && A.Offsets.size() == B.Offsets.size() &&
                  A.NotFollowed.empty() == B.NotFollowed.empty();
      for (size_t I = 0; Same && I < A.Offsets.size(); ++I)
        Same = spelledText(A.Offsets[I], Ctx) == spelledText(B.Offsets[I], Ctx);
      if (!Same)
        Unlike.insert(P);
    }
  }
  return Unlike;
}

// The pointer and reference parameters of E's function whose values E's
// value may derive from: those it names, through the values of the local
// pointers it names (their initialisers and assignments).
void derivedFrom(const Expr *E, std::set<const ParmVarDecl *> &Out, std::set<const VarDecl *> &Seen) {
  if (!E)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl())) {
      if (isPointerLike(P) || P->getType()->isRecordType())
        Out.insert(P);
    } else if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
               V && V->isLocalVarDecl() && (V->getType()->isPointerType() || V->getType()->isReferenceType()) &&
               Seen.insert(V).second) {
      derivedFrom(V->getInit(), Out, Seen);
      for (const Expr *A : pointerChanges(V).Assigned)
        derivedFrom(A, Out, Seen);
    }
    return;
  }
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      derivedFrom(CE, Out, Seen);
}

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
  // The calls of each, with the function each is written in.
  std::map<const FunctionDecl *, std::vector<std::pair<const CallExpr *, const FunctionDecl *>>> CallsOf;
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
      CallsOf[Def].push_back({C, F});
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

namespace {

// An argument as written (within a macro's arguments too), shortened.
std::string argumentText(const Expr *E, const ASTContext &Ctx) {
  CharSourceRange R = CharSourceRange::getTokenRange(E->getSourceRange());
  std::string T = Lexer::getSourceText(R, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
  if (T.empty()) {
    llvm::raw_string_ostream OS(T);
    E->printPretty(OS, nullptr, Ctx.getPrintingPolicy());
  }
  return T.size() > 48 ? T.substr(0, 45) + "..." : T;
}

} // namespace

const OffsetBinding *BoundChain::offsetBinding(const ArrayRef &A) const {
  if (!A || !A.fields().empty())
    return nullptr;
  auto It = Offsets.find(A.param());
  return It == Offsets.end() ? nullptr : &It->second;
}

bool isLaunchOffset(const OffsetBinding &O, const WriteSet &KernelWrites) {
  return O.InKernel && !O.Offsets.empty() &&
         llvm::all_of(O.Offsets, [&](const Expr *E) { return isLaunchEvaluable(E, KernelWrites); });
}

const OffsetBinding *BoundChain::viewOf(const ArrayRef &A, const WriteSet &KernelWrites) const {
  const OffsetBinding *O = offsetBinding(A);
  if (!O || !isLaunchOffset(*O, KernelWrites) || KernelWrites.writesThrough(O->Array) || Writes.writesThrough(A))
    return nullptr;
  return O;
}

std::string BoundChain::unboundWhy(const ArrayRef &A, const WriteSet &KernelWrites, const ASTContext &Ctx) const {
  const Expr *Arg = A ? argumentFor(A.param()) : nullptr;
  const std::string Passes = Arg ? " (the call passes '" + argumentText(Arg, Ctx) + "')" : std::string();
  if (A && A.fields().empty())
    if (auto It = Spaces.find(A.param()); It != Spaces.end())
      return readOfSpace(It->second, A.spelling());
  const std::string Named = A.quoted() + " of " + quotedName(Chain.callee());
  if (const OffsetBinding *O = offsetBinding(A)) {
    if (KernelWrites.writesThrough(O->Array) || Writes.writesThrough(A))
      return O->Array.quoted() + " is written in the kernel: " + Named + " points into it" + Passes;
    const std::string At = Named + " points into " + O->Array.quoted() + " at an offset" + Passes;
    if (!O->NotFollowed.empty())
      return At + " that is not followed: " + O->NotFollowed;
    if (!O->InKernel)
      return At + " that a function between the kernel and it adds (a view's offset is the kernel's call's)";
    if (!isLaunchOffset(*O, KernelWrites))
      return At + " that is not computable from the kernel's arguments (a view's offset is computed at the launch)";
    return At + ": a called function's sites are rewritten over arrays the kernel passes unchanged or at an "
                "offset the launch computes";
  }
  // Memory the function writes itself: no copy made before the launch holds
  // what it reads, whatever the call passes.
  if (Writes.writesThrough(A))
    return Named + " is written in the kernel: " + quotedName(Chain.callee()) + " writes it" + Passes;
  std::string Instead;
  if (A && A.fields().empty())
    if (auto It = UnboundBecause.find(A.param()); It != UnboundBecause.end())
      Instead = ": " + It->second;
  return Named + " is not an array the kernel passes unchanged" + Passes + Instead;
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
    // The current function's parameters bound unlike at its other calls, or
    // derived from its caller's that are: each with the function whose calls
    // differ.
    std::map<const ParmVarDecl *, const FunctionDecl *> Unlike;
    for (size_t I = 0; I < Chain.Calls.size(); ++I) {
      const FunctionDecl *F = Chain.Functions[I];
      const FunctionDecl *CallerFn = I ? Chain.Functions[I - 1] : Kernel;
      Level Next = bind(Chain.Calls[I], F, CallerFn, Caller, KernelWrites, DeviceOnly);
      std::map<const ParmVarDecl *, const FunctionDecl *> NextUnlike;
      if (!Unlike.empty()) {
        const std::vector<const Expr *> Args = callArguments(Chain.Calls[I], F);
        for (unsigned A = 0; A < F->getNumParams() && A < Args.size(); ++A) {
          std::set<const ParmVarDecl *> From;
          std::set<const VarDecl *> Seen;
          derivedFrom(Args[A], From, Seen);
          for (const ParmVarDecl *P : From)
            if (auto It = Unlike.find(P); It != Unlike.end()) {
              NextUnlike.emplace(F->getParamDecl(A), It->second);
              break;
            }
        }
      }
      for (const ParmVarDecl *P : boundUnlike(F, Chain.Calls[I], CallerFn, Caller, Next, Finder.CallsOf[F],
                                              KernelWrites, DeviceOnly, Ctx))
        NextUnlike.emplace(P, F);
      Unlike = std::move(NextUnlike);
      L = std::move(Next);
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
    // What memory a parameter points into holds for every call only when the
    // chain's calls are the only ones.
    B.UnboundBecause = std::move(L.Unbound);
    auto Why = [&](const FunctionDecl *F) {
      return quotedName(F) + " is called elsewhere with pointers not bound alike (what a parameter points into "
                             "is followed only where every call binds it alike)";
    };
    for (auto &[P, Space] : L.Spaces)
      if (auto It = Unlike.find(P); It != Unlike.end())
        B.UnboundBecause[P] = Why(It->second);
      else
        B.Spaces[P] = Space;
    for (auto &[P, Offset] : L.Offsets)
      if (auto It = Unlike.find(P); It != Unlike.end())
        B.UnboundBecause[P] = Why(It->second);
      else
        B.Offsets[P] = Offset;
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
