#include "Analysis/WriteSet.h"
#include "Analysis/BodyNodes.h"
#include "Analysis/StoreTargets.h"
#include "Analysis/DeviceOnlyCode.h"
#include "Analysis/PerContext.h"
#include "Analysis/Calls.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace irregfix {

bool isDeviceSymbol(const VarDecl *V) {
  return V && V->hasGlobalStorage() && !V->isStaticLocal() &&
         (V->hasAttr<CUDADeviceAttr>() || V->hasAttr<CUDAConstantAttr>() || V->hasAttr<HIPManagedAttr>());
}

std::string symbolSpelling(const VarDecl *V) {
  std::string Name = V->getNameAsString();
  for (const DeclContext *C = V->getDeclContext(); !C->isTranslationUnit(); C = C->getParent()) {
    const auto *N = dyn_cast<NamespaceDecl>(C);
    if (!N || N->isAnonymousNamespace())
      return "";
    if (!N->isInline())
      Name = N->getNameAsString() + "::" + Name;
  }
  return "::" + Name;
}

namespace {

// The functions whose summaries are being computed (a call back into one is
// recursion) and the summaries already known, for one top-level analysis.
struct SummaryContext {
  const DeviceOnlyCode *DeviceOnly = nullptr;
  std::shared_ptr<const FunctionLocals> Locals = std::make_shared<FunctionLocals>();
  std::set<const FunctionDecl *> InProgress;
  std::map<const FunctionDecl *, WriteSet> Done;
};

WriteSet analyse(const FunctionDecl *Fn, SummaryContext &Ctx);

} // namespace

ArrayRef WriteSet::pointerBase(const Expr *E, const WriteSet *Writes) {
  StoreTarget T = pointerTarget(E, Writes);
  return T.K == StoreTarget::Array ? T.A : ArrayRef();
}

std::string WriteSet::writtenWhy(const ArrayRef &A) {
  if (A.isPointeeMember())
    return A.quoted() + " lies in the struct " + A.holder().quoted() + " points to, which the kernel writes";
  return A.quoted() + " is written in the kernel";
}

ArrayRef WriteSet::pointeeMember(const MemberExpr *ME, const WriteSet &Writes) {
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  const auto *DR = dyn_cast<DeclRefExpr>(strip(ME->getBase()));
  const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
  if (!ME->isArrow() || !F || !P || !P->getType()->isPointerType() || Writes.writesScalar(P))
    return ArrayRef();
  if (whyNotPointeeMember(F, P->getType()->getPointeeType()))
    return ArrayRef();
  return ArrayRef::memberOfPointee(P, F);
}

const char *WriteSet::whyNotPointeeMember(const FieldDecl *F, QualType Struct) {
  if (Struct.isVolatileQualified())
    return "which is volatile";
  // Every dimension of constant size: a read of several dimensions is one of
  // the flat array at an index the member's type gives the strides of.
  QualType Elem = F->getType();
  do {
    const auto *CA = dyn_cast<ConstantArrayType>(Elem->getUnqualifiedDesugaredType());
    if (!CA)
      return "of no constant size";
    Elem = CA->getElementType();
  } while (Elem->isArrayType());
  if (Elem.isVolatileQualified())
    return "of volatile elements";
  if (!(Elem->isIntegerType() || Elem->isRealFloatingType()))
    return "of elements that are no integers or floating-point numbers";
  return nullptr;
}

ArrayRef WriteSet::exactPointer(const Expr *E, const WriteSet &Writes) {
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = strip(E);
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // An array member of the struct a pointer parameter points to: device
      // memory at the pointer plus the member's offset.
      if (ArrayRef M = pointeeMember(ME, Writes))
        return M;
      // An array field is inside the struct itself: the launch's arguments
      // or the thread's own copy, no device memory a copy could be built of.
      if (E->getType()->isArrayType())
        return ArrayRef();
      ArrayRef F = fieldOfParam(ME);
      return F && !Writes.writesScalar(F.param()) ? F : ArrayRef();
    }
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    if (!DR)
      return ArrayRef();
    if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
      return isArrayParam(P) && !Writes.writesScalar(P) ? ArrayRef(P) : ArrayRef();
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V || !V->isLocalVarDecl() || !V->hasInit() || !V->getType()->isPointerType() ||
        Writes.writesScalar(V))
      return ArrayRef();
    E = V->getInit();
  }
  return ArrayRef();
}

// Collects the stores of one function body, replayed over its recorded nodes
// (BodyNodes.h); a constructor's member initialisers are walked.
class WriteCollector : public RecursiveASTVisitor<WriteCollector> {
public:
  WriteCollector(WriteSet &W, const FunctionDecl *Fn, SummaryContext &Ctx)
      : W(W), Fn(Fn), Ctx(Ctx), Calls(Fn->getASTContext().getSourceManager()) {
    W.Locals = Ctx.Locals;
  }

  // Code of Fn only the device compilation sees may store what no AST shows.
  void checkDeviceOnlyCode() {
    if (const DeviceOnlyCode *D = Ctx.DeviceOnly)
      if (std::string Why = D->mayStore(Fn); !Why.empty())
        untraced(Fn->getBody(), std::move(Why));
  }

  bool shouldVisitLambdaBody() const { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      noteStore(BO->getLHS(), BO);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      noteStore(UO->getSubExpr(), UO);
    else if (UO->getOpcode() == UO_AddrOf)
      noteEscape(UO->getSubExpr(), UO->getType(), UO);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    // A defaulted copy or move assignment stores into its object, nothing else
    // (it may have no body yet: it is defined where it is first used).
    if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(C->getDirectCallee());
        M && M->isDefaulted() && (M->isCopyAssignmentOperator() || M->isMoveAssignmentOperator())) {
      if (Object O = objectOf(C); O.E)
        O.Arrow ? notePointerWrite(O.E, C) : noteStore(O.E, C);
      return true;
    }
    const FunctionDecl *Callee = nullptr;
    CallKind Kind = Calls.classify(C, &Callee);
    if (Kind == CallKind::Indirect || Kind == CallKind::Unseen)
      return untraced(C, unfollowable(Kind, Callee)), true;
    if (Kind == CallKind::Library)
      return libraryCall(C, Callee), true;
    const FunctionDecl *Def = Callee->getDefinition();
    if (const auto *M = dyn_cast<CXXMethodDecl>(Def); M && M->isVirtual() && !M->hasAttr<FinalAttr>() &&
                                                       !M->getParent()->hasAttr<FinalAttr>())
      return untraced(C, "it makes a virtual call of '" + M->getNameAsString() + "'"), true;
    callDefined(C, Def, argumentsOf(C, Def), objectOf(C));
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    const CXXConstructorDecl *Ctor = C->getConstructor();
    if (!Ctor || Ctor->isTrivial())
      return true;
    const SourceManager &SM = Fn->getASTContext().getSourceManager();
    std::vector<const Expr *> Args(C->arg_begin(), C->arg_end());
    const FunctionDecl *Def = Ctor->getDefinition();
    if (Ctor->getBuiltinID() || SM.isInSystemHeader(SM.getExpansionLoc(Ctor->getLocation())) ||
        (!Def && Ctor->isDefaulted())) {
      libraryArguments(Args, Ctor);
      return true;
    }
    if (!Def)
      return untraced(C, "it calls the constructor of '" + Ctor->getParent()->getNameAsString() +
                             "', whose body the analysis cannot see"),
             true;
    // The object under construction is new memory: its own stores do not count.
    callDefined(C, Def, Args, Object());
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *N) {
    for (const Expr *P : N->placement_arguments()) // placement new constructs into P
      notePointerWrite(P, N);
    return true;
  }
  bool VisitAsmStmt(AsmStmt *A) {
    if (const auto *G = dyn_cast<GCCAsmStmt>(A)) {
      std::string Text = G->getAsmString()->getString().str();
      bool Stores = false;
      for (const char *Op : {"st.", "st ", "atom", "red.", "cp.", "multimem", "stmatrix"})
        Stores |= Text.find(Op) != std::string::npos;
      for (unsigned I = 0; I < G->getNumOutputs(); ++I)
        Stores |= G->getOutputConstraint(I).contains('m');
      // Register outputs are stores to the variables named.
      for (unsigned I = 0; I < G->getNumOutputs(); ++I)
        noteStore(G->getOutputExpr(I), A);
      if (Stores)
        untraced(A, "it has inline assembly that may store to memory");
      return true;
    }
    return untraced(A, "it has inline assembly"), true;
  }
  // for (int e = <global index>; e < n; e += blockDim.x * gridDim.x)
  bool VisitForStmt(ForStmt *For) {
    const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit());
    const auto *V = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    const auto *Step = dyn_cast_or_null<CompoundAssignOperator>(For->getInc());
    if (!V || !V->hasInit() || !Step || Step->getOpcode() != BO_AddAssign)
      return true;
    const auto *LHS = dyn_cast<DeclRefExpr>(strip(Step->getLHS()));
    // The grid's size and the start may be locals holding them (`int threads =
    // blockDim.x * gridDim.x;`, `int id = ...;`), never changed after.
    const auto *Mul = dyn_cast<BinaryOperator>(strip(throughUnchangedLocals(Step->getRHS(), *Ctx.Locals)));
    if (!LHS || LHS->getDecl() != V || !Mul || Mul->getOpcode() != BO_Mul)
      return true;
    bool GridSize = (isBuiltinIndexRead(Mul->getLHS(), "blockDim", 'x') && isBuiltinIndexRead(Mul->getRHS(), "gridDim", 'x')) ||
                    (isBuiltinIndexRead(Mul->getLHS(), "gridDim", 'x') && isBuiltinIndexRead(Mul->getRHS(), "blockDim", 'x'));
    if (GridSize &&
        isGlobalThreadIndexArithmetic(throughUnchangedLocals(V->getInit(), *Ctx.Locals), *Ctx.Locals))
      W.GridStride[V] = For;
    return true;
  }

  void resolveDeferred() {
    for (auto &[E, Through, Store] : Deferred)
      record(Through ? pointerTarget(E, &W) : lvalueTarget(E, &W), Store);
  }

private:
  // `E` (an lvalue) is the target of a store.
  void noteStore(const Expr *E, const Stmt *Store) {
    const Expr *S = E->IgnoreParenImpCasts();
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        ++W.WrittenScalars[V];
    }
    // `s.f = ...` assigns part of s: a by-value struct parameter no longer holds
    // the pointers its launch passed.
    const Expr *Root = S;
    for (const auto *ME = dyn_cast<MemberExpr>(Root); ME && !ME->isArrow();
         ME = dyn_cast<MemberExpr>(Root))
      Root = ME->getBase()->IgnoreParenImpCasts();
    if (Root != S)
      if (const auto *DR = dyn_cast<DeclRefExpr>(Root->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
          ++W.WrittenScalars[V];
    // Resolved once all scalar writes are known: locals and parameters may be reassigned.
    Deferred.push_back({E, false, Store});
  }

  // A store through pointer expression Ptr.
  void notePointerWrite(const Expr *Ptr, const Stmt *Store) { Deferred.push_back({Ptr, true, Store}); }

  // `&X` where X may then be written through the resulting pointer.
  void noteEscape(const Expr *X, QualType PtrType, const Stmt *Store) {
    if (PtrType->isPointerType() && PtrType->getPointeeType().isConstQualified())
      return;
    noteStore(X, Store);
  }

  void untraced(const Stmt *At, std::string Why) {
    if (!W.UntracedWrite) {
      W.UntracedWrite = At;
      W.UntracedWhy = std::move(Why);
    }
  }

  // A parameter of a function declared inside Fn (a local class's method, a
  // lambda): not one Fn's caller or launch can name. (A lambda's own stores
  // through the parameters of the function around it are that function's.)
  bool foreign(const ParmVarDecl *P) const {
    if (!P)
      return false;
    const FunctionDecl *Def = Fn->getDefinition() ? Fn->getDefinition() : Fn;
    const DeclContext *Own = P->getDeclContext();
    for (const DeclContext *DC = Own->getLexicalParent(); DC; DC = DC->getLexicalParent())
      if (DC == Def || DC == Fn)
        return true;
    return false;
  }

  void record(const StoreTarget &T, const Stmt *Store) {
    if ((T.K == StoreTarget::Array && foreign(T.A.param())) ||
        (T.K == StoreTarget::Reference && foreign(dyn_cast<ParmVarDecl>(T.Var))))
      return untraced(Store, "it stores through '" +
                                 (T.K == StoreTarget::Array ? T.A.spelling() : T.Var->getNameAsString()) +
                                 "', a parameter of a function declared inside it");
    switch (T.K) {
    case StoreTarget::Array:
      W.WrittenArrays.insert(T.A);
      return;
    case StoreTarget::Symbol:
      W.WrittenSymbols.insert(T.Var);
      return;
    case StoreTarget::Local:
      return;
    case StoreTarget::This:
      W.WritesThis = true;
      return;
    case StoreTarget::Reference:
      W.WrittenReferences.insert(cast<ParmVarDecl>(T.Var));
      return;
    case StoreTarget::Unknown:
      untraced(Store, T.Why);
      return;
    }
  }

  // The arguments of C in the order of Def's parameters (a member operator's
  // object is not one of them).
  static std::vector<const Expr *> argumentsOf(const CallExpr *C, const FunctionDecl *Def) {
    std::vector<const Expr *> Args(C->arg_begin(), C->arg_end());
    if (isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(Def) && !Args.empty())
      Args.erase(Args.begin());
    return Args;
  }

  // The object a method call works on (`obj` of obj.m() / obj + x), or null.
  struct Object {
    const Expr *E = nullptr;
    bool Arrow = false; // E is a pointer to the object (p->m())
  };
  static Object objectOf(const CallExpr *C) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C)) {
      if (const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens()))
        return {ME->getBase(), ME->isArrow()};
      return {MC->getImplicitObjectArgument(), false};
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(C);
        OC && isa_and_nonnull<CXXMethodDecl>(OC->getDirectCallee()) && OC->getNumArgs() > 0)
      return {OC->getArg(0), false};
    return {};
  }

  // A builtin or a function of a system header: it may write what its
  // pointer and non-const reference arguments give it (atomics, memcpy, stores).
  void libraryCall(const CallExpr *C, const FunctionDecl *Callee) {
    std::vector<const Expr *> Args(C->arg_begin(), C->arg_end());
    if (Object O = objectOf(C); O.E) {
      if (const auto *M = dyn_cast_or_null<CXXMethodDecl>(Callee); M && !M->isConst()) {
        if (O.Arrow)
          notePointerWrite(O.E, C);
        else
          noteStore(O.E, C);
      }
      if (isa<CXXOperatorCallExpr>(C) && !Args.empty())
        Args.erase(Args.begin());
    }
    libraryArguments(Args, Callee);
  }

  void libraryArguments(const std::vector<const Expr *> &Args, const FunctionDecl *Callee) {
    for (unsigned I = 0; I < Args.size(); ++I) {
      const Expr *Arg = Args[I];
      QualType PT;
      if (Callee && I < Callee->getNumParams())
        PT = Callee->getParamDecl(I)->getType();
      else if (Callee && Callee->isVariadic() && Callee->getBuiltinID() == 0 &&
               (Callee->getName() == "printf" || Callee->getName() == "vprintf"))
        continue; // printf reads its variadic arguments
      else
        PT = Arg->getType();
      if (const auto *Ref = PT->getAs<ReferenceType>()) {
        if (!Ref->getPointeeType().isConstQualified())
          noteStore(Arg, Arg);
        continue;
      }
      if (PT->isPointerType() && !PT->getPointeeType().isConstQualified())
        notePointerEscape(Arg);
    }
  }

  void notePointerEscape(const Expr *Arg) {
    const Expr *E = strip(Arg);
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
      return noteStore(UO->getSubExpr(), Arg);
    if (E->getType()->isPointerType() || E->getType()->isArrayType())
      return notePointerWrite(E, Arg);
    // A pointer made from an integer or another non-pointer: nothing names it.
    if (!isa<CXXNullPtrLiteralExpr>(E) && !isa<GNUNullExpr>(E) && !E->isNullPointerConstant(
            Fn->getASTContext(), Expr::NPC_ValueDependentIsNotNull))
      untraced(Arg, "it passes " + spelled(Arg) + " to a function that may write through it");
  }

  // A call of a function whose body is visible: its writes, named in ours.
  void callDefined(const Stmt *Call, const FunctionDecl *Def, const std::vector<const Expr *> &Args, Object Obj) {
    std::string Name = quoted(Def);
    if (isa<CXXMethodDecl>(Def) && cast<CXXMethodDecl>(Def)->getParent()->isLambda())
      Name = "a lambda";
    if (Ctx.InProgress.count(Def->getCanonicalDecl()))
      return untraced(Call, "it calls " + Name + " recursively");
    const WriteSet &S = summary(Def);
    if (S.hasUntracedWrite()) {
      llvm::StringRef Inner = S.untracedWhy();
      Inner.consume_front("it ");
      untraced(Call, "it calls " + Name + ", which " + Inner.str());
    }
    for (const VarDecl *V : S.writtenSymbols())
      W.WrittenSymbols.insert(V);
    for (const ParmVarDecl *P : S.writtenReferences()) {
      unsigned I = P->getFunctionScopeIndex();
      if (P->getDeclContext() == Def && I < Args.size())
        noteStore(Args[I], Call);
      else
        untraced(Call, "it calls " + Name + ", which stores through a reference it cannot name");
    }
    if (S.writesThis()) {
      if (Obj.E && Obj.Arrow)
        notePointerWrite(Obj.E, Call);
      else if (Obj.E)
        noteStore(Obj.E, Call);
      else if (!isa<CXXConstructExpr>(Call))
        untraced(Call, "it calls " + Name + ", which stores into an object it cannot name");
    }
    for (const ArrayRef &A : S.writtenArrays()) {
      const ParmVarDecl *P = A.param();
      unsigned I = P->getFunctionScopeIndex();
      if (P->getDeclContext() != Def) { // a parameter captured by a lambda: ours already
        W.WrittenArrays.insert(A);
        continue;
      }
      if (I >= Args.size()) {
        untraced(Call, "it calls " + Name + " with a default argument it writes through");
        continue;
      }
      if (!A.isField()) {
        notePointerWrite(Args[I], Call);
        continue;
      }
      // A pointer field of a struct passed by value: the same field of ours.
      llvm::SmallVector<const FieldDecl *, 2> Fields;
      const Expr *E = strip(Args[I]);
      for (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow(); ME = dyn_cast<MemberExpr>(E)) {
        const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
        if (!F)
          break;
        Fields.insert(Fields.begin(), F);
        E = strip(ME->getBase());
      }
      const auto *DR = dyn_cast<DeclRefExpr>(E);
      const auto *Ours = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
      if (Ours && Ours->getType()->isRecordType() && !W.writesScalar(Ours)) {
        for (const FieldDecl *F : A.fields())
          Fields.push_back(F);
        W.WrittenArrays.insert(ArrayRef(Ours, std::move(Fields)));
      } else {
        untraced(Call, "it passes a struct to " + Name + ", which writes through its pointer field '" +
                           A.spelling().substr(P->getName().size() + 1) + "'");
      }
    }
  }

  const WriteSet &summary(const FunctionDecl *Def) {
    const FunctionDecl *Key = Def->getCanonicalDecl();
    auto It = Ctx.Done.find(Key);
    if (It == Ctx.Done.end())
      It = Ctx.Done.emplace(Key, analyse(Def, Ctx)).first;
    return It->second;
  }

  WriteSet &W;
  const FunctionDecl *Fn;
  SummaryContext &Ctx;
  CallClassifier Calls;
  // (expression, through a pointer (else an lvalue), the store)
  std::vector<std::tuple<const Expr *, bool, const Stmt *>> Deferred;
};

namespace {

WriteSet analyse(const FunctionDecl *Fn, SummaryContext &Ctx) {
  WriteSet W;
  if (!Fn || !Fn->hasBody())
    return W;
  Ctx.InProgress.insert(Fn->getCanonicalDecl());
  WriteCollector C(W, Fn, Ctx);
  C.checkDeviceOnlyCode();
  replayBody(C, Fn->getBody(), Fn->getASTContext());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Fn)) // member initialisers are stores into *this
    for (const CXXCtorInitializer *Init : Ctor->inits())
      C.TraverseStmt(Init->getInit());
  C.resolveDeferred();
  Ctx.InProgress.erase(Fn->getCanonicalDecl());
  return W;
}

} // namespace

bool WriteSet::writesScalar(const VarDecl *V) const {
  auto It = WrittenScalars.find(V);
  unsigned Stores = It == WrittenScalars.end() ? 0 : It->second;
  return Stores > (GridStride.count(V) ? 1u : 0u);
}

WriteSet WriteSet::throughCall(const WriteSet &Kernel, const std::set<ArrayRef> &Arrays,
                               std::set<const ParmVarDecl *> Thread) const {
  WriteSet W = *this;
  W.WrittenArrays.insert(Arrays.begin(), Arrays.end());
  W.WrittenSymbols.insert(Kernel.WrittenSymbols.begin(), Kernel.WrittenSymbols.end());
  if (!W.UntracedWrite && Kernel.UntracedWrite) {
    W.UntracedWrite = Kernel.UntracedWrite;
    W.UntracedWhy = Kernel.UntracedWhy;
  }
  W.ThreadParams = std::move(Thread);
  return W;
}

namespace {

// The write sets of one AST, by function and device-only code: a kernel's is
// asked for by its analysis, its scatter updates and the host code that
// launches it, a callee's by every kernel that calls it. The copies handed out
// share their locals' values, each function's built once.
struct KnownWriteSets {
  std::map<std::pair<const FunctionDecl *, const DeviceOnlyCode *>, WriteSet> Of;
};

} // namespace

WriteSet WriteSet::of(const FunctionDecl *Fn, const DeviceOnlyCode *DeviceOnly) {
  SummaryContext Ctx;
  Ctx.DeviceOnly = DeviceOnly;
  if (!Fn)
    return analyse(Fn, Ctx);
  auto &Known = PerContext<KnownWriteSets>::of(Fn->getASTContext()).Of;
  const auto Key = std::make_pair(Fn, DeviceOnly);
  if (auto It = Known.find(Key); It != Known.end())
    return It->second;
  return Known.emplace(Key, analyse(Fn, Ctx)).first->second;
}

} // namespace irregfix
