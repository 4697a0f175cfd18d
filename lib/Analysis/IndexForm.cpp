#include "Analysis/IndexForm.h"
#include "Analysis/AnalysisBudget.h"
#include "Analysis/LibraryCalls.h"
#include "Analysis/PointerAliases.h"
#include "Analysis/ThreadIndex.h"
#include "Analysis/WriteSet.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace irregfix {

namespace {

FormRef unknown(std::string Why, bool MayLoad, const Expr *Source);

// The bound on a form's tree (its parts counted at every use): far above any
// index a program writes, far below the trees a chain of selections that read
// the previous value in both arms makes (three times larger at each step).
constexpr size_t kMaxFormTree = 1 << 14;

FormRef make(Form F) {
  F.TreeSize = 1;
  F.Loads = F.K == Form::Load || (F.K == Form::Unknown && F.MayLoad);
  F.Known = F.K != Form::Unknown;
  F.UsesThread = F.K == Form::Thread;
  F.LoadDepth = 0;
  for (const FormRef &O : F.Ops) {
    F.TreeSize += O->TreeSize;
    F.Loads |= O->Loads;
    F.Known &= O->Known;
    F.UsesThread |= O->UsesThread;
    F.LoadDepth = std::max(F.LoadDepth, O->LoadDepth);
  }
  F.LoadDepth += F.K == Form::Load ? 1 : 0;
  if (F.TreeSize > kMaxFormTree)
    return unknown("the expression is too large to follow", F.Loads, F.Source);
  return std::make_shared<const Form>(std::move(F));
}

FormRef unknown(std::string Why, bool MayLoad, const Expr *Source) {
  Form F;
  F.K = Form::Unknown;
  F.Why = std::move(Why);
  F.MayLoad = MayLoad;
  F.Source = Source;
  return make(std::move(F));
}

// An Unknown whose reason quotes Spelled's text (spelled when asked: Form::why).
FormRef spelledUnknown(const char *Before, const Expr *Spelled, const char *After, const ASTContext &Ctx,
                       bool MayLoad, const Expr *Source) {
  Form F;
  F.K = Form::Unknown;
  F.WhyBefore = Before;
  F.Spelled = Spelled;
  F.WhyAfter = After;
  F.SpelledIn = &Ctx;
  F.MayLoad = MayLoad;
  F.Source = Source;
  return make(std::move(F));
}

FormRef op(std::string Name, std::vector<FormRef> Ops, const Expr *Source) {
  Form F;
  F.K = Form::Op;
  F.Name = std::move(Name);
  F.Ops = std::move(Ops);
  F.Source = Source;
  return make(std::move(F));
}

// Whether S reads memory (a subscript, a dereference, an arrow) or calls a
// function outside the library: what a value computed by S may depend on.
bool isBuiltinRead(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  return E && isAnyBuiltinIndexRead(E);
}

bool readsMemory(const Stmt *S) {
  if (!S || isBuiltinRead(S))
    return false;
  if (isa<ArraySubscriptExpr>(S) || isa<AsmStmt>(S)) // inline assembly may load anything
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref)
    return true;
  if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow())
    return true;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F || !F->getBuiltinID())
      return true;
  }
  for (const Stmt *Child : S->children())
    if (readsMemory(Child))
      return true;
  return false;
}

// Whether any assignment to V in Body may store a value read from memory.
bool assignedFromMemory(const VarDecl *V, const Stmt *Body) {
  if (!Body)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(Body); BO && BO->isAssignmentOp())
    if (const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()); DR && DR->getDecl() == V)
      if (readsMemory(BO->getRHS()))
        return true;
  for (const Stmt *Child : Body->children())
    if (assignedFromMemory(V, Child))
      return true;
  return false;
}

const char *binaryName(BinaryOperatorKind K) {
  switch (K) {
  case BO_Add:
    return "+";
  case BO_Sub:
    return "-";
  case BO_Mul:
    return "*";
  case BO_Div:
    return "/";
  case BO_Rem:
    return "%";
  case BO_Shl:
    return "<<";
  case BO_Shr:
    return ">>";
  case BO_And:
    return "&";
  case BO_Or:
    return "|";
  case BO_Xor:
    return "^";
  case BO_LT:
    return "<";
  case BO_GT:
    return ">";
  case BO_LE:
    return "<=";
  case BO_GE:
    return ">=";
  case BO_EQ:
    return "==";
  case BO_NE:
    return "!=";
  case BO_LAnd:
    return "&&";
  case BO_LOr:
    return "||";
  default:
    return nullptr;
  }
}

// Whether a loop body leaves its loop or an iteration (break, continue,
// return, goto) under a condition that Loaded says depends on memory. A break
// or continue in an inner loop (a break in a switch) is that one's; a return
// or goto in it leaves this one too.
template <typename LoadedFn>
bool leavesOnLoad(const Stmt *S, LoadedFn &Loaded, bool Guarded = false, bool InLoop = false, bool InSwitch = false) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<BreakStmt>(S))
    return Guarded && !InLoop && !InSwitch;
  if (isa<ContinueStmt>(S))
    return Guarded && !InLoop;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S))
    return Guarded;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    const bool Inner = Guarded || Loaded(If->getCond());
    return leavesOnLoad(If->getThen(), Loaded, Inner, InLoop, InSwitch) ||
           leavesOnLoad(If->getElse(), Loaded, Inner, InLoop, InSwitch);
  }
  const bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S);
  for (const Stmt *C : S->children())
    if (leavesOnLoad(C, Loaded, Guarded, InLoop || Loop, InSwitch || isa<SwitchStmt>(S)))
      return true;
  return false;
}

enum class MemberSubscripts { None, Row, Element };

// `p->m[a][b]`, m a member of several dimensions of the struct p points to
// (p no `this`), every dimension but the first of constant size: an Element
// when every dimension is subscripted (R's Base `p->m`, Rows a, Index b), a
// Row when some is not (`p->m[a]` of `int m[16][8]`: no element is read).
MemberSubscripts subscriptsOfMember(const ArraySubscriptExpr *AS, MemoryRead &R) {
  llvm::SmallVector<const ArraySubscriptExpr *, 4> Chain{AS}; // outermost first
  const Expr *E = AS->getBase()->IgnoreParenImpCasts();
  while (const auto *Inner = dyn_cast<ArraySubscriptExpr>(E)) {
    Chain.insert(Chain.begin(), Inner);
    E = Inner->getBase()->IgnoreParenImpCasts();
  }
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || !ME->isArrow() || isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
      !isa<FieldDecl>(ME->getMemberDecl()))
    return MemberSubscripts::None;
  const auto *Outer = ME->getType()->getAsArrayTypeUnsafe();
  if (!Outer || !Outer->getElementType()->isArrayType())
    return MemberSubscripts::None;
  // The strides: the elements of a row of each dimension after the first.
  llvm::SmallVector<unsigned long long, 4> Extents;
  for (QualType T = Outer->getElementType(); T->isArrayType(); T = T->castAsArrayTypeUnsafe()->getElementType()) {
    const auto *CA = dyn_cast<ConstantArrayType>(T->castAsArrayTypeUnsafe());
    if (!CA)
      return MemberSubscripts::None;
    Extents.push_back(CA->getSize().getZExtValue());
  }
  if (Chain.size() <= Extents.size())
    return MemberSubscripts::Row;
  unsigned long long Stride = 1;
  llvm::SmallVector<unsigned long long, 4> Strides(Extents.size());
  for (size_t I = Extents.size(); I-- > 0;)
    Strides[I] = Stride *= Extents[I];
  R.Base = ME;
  R.Index = AS->getIdx();
  for (size_t I = 0; I < Extents.size(); ++I)
    R.Rows.push_back({Chain[I]->getIdx(), Strides[I]});
  return MemberSubscripts::Element;
}

} // namespace

bool isRowOfMember(const ArraySubscriptExpr *AS) {
  MemoryRead R;
  return subscriptsOfMember(AS, R) == MemberSubscripts::Row;
}

std::string flatIndexText(const RowSubscripts &Rows, const std::string &Last,
                          const std::function<std::string(const Expr *)> &Spell, const char *Cast) {
  if (Rows.empty())
    return Last;
  std::string T;
  for (const RowSubscript &Row : Rows)
    T += Cast + ("(" + Spell(Row.Index) + ") * ") + std::to_string(Row.Stride) + " + ";
  return T + Cast + "(" + Last + ")";
}

bool asMemoryRead(const Expr *E, MemoryRead *Out) {
  const Expr *S = E->IgnoreParens();
  MemoryRead R;
  R.Read = E;
  if (const auto *C = dyn_cast<CallExpr>(S)) { // __ldg(&A[i]), __ldg(A + i)
    const FunctionDecl *F = C->getDirectCallee();
    if (!F || !F->getIdentifier() || F->getName() != "__ldg" || C->getNumArgs() != 1)
      return false;
    const Expr *Arg = strip(C->getArg(0));
    if (const auto *A = dyn_cast<UnaryOperator>(Arg); A && A->getOpcode() == UO_AddrOf) {
      if (!asMemoryRead(A->getSubExpr(), &R))
        return false;
      R.Read = E;
      *Out = R;
      return true;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(Arg); B && B->getOpcode() == BO_Add) {
      bool LeftPtr = B->getLHS()->getType()->isPointerType();
      R.Base = LeftPtr ? B->getLHS() : B->getRHS();
      R.Index = LeftPtr ? B->getRHS() : B->getLHS();
    } else {
      R.Base = Arg;
    }
    *Out = R;
    return true;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    if (!isa<FieldDecl>(ME->getMemberDecl()))
      return false;
    if (ME->isArrow()) { // p->f
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return false; // a member of the object a method works on: not an array read
      R.Base = ME->getBase();
      R.Field = cast<FieldDecl>(ME->getMemberDecl());
      *Out = R;
      return true;
    }
    MemoryRead Inner; // A[i].f
    if (!asMemoryRead(ME->getBase(), &Inner) || Inner.Field)
      return false;
    Inner.Read = E;
    Inner.Field = cast<FieldDecl>(ME->getMemberDecl());
    *Out = Inner;
    return true;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_Deref) {
    const Expr *P = strip(U->getSubExpr());
    if (const auto *B = dyn_cast<BinaryOperator>(P); B && (B->getOpcode() == BO_Add)) {
      bool LeftPtr = B->getLHS()->getType()->isPointerType();
      R.Base = LeftPtr ? B->getLHS() : B->getRHS();
      R.Index = LeftPtr ? B->getRHS() : B->getLHS();
    } else {
      R.Base = P;
    }
    *Out = R;
    return true;
  }
  const auto *AS = dyn_cast<ArraySubscriptExpr>(S);
  if (!AS)
    return false;
  switch (subscriptsOfMember(AS, R)) {
  case MemberSubscripts::Element:
    *Out = R;
    return true;
  case MemberSubscripts::Row:
    return false;
  case MemberSubscripts::None:
    break;
  }
  const Expr *Base = strip(AS->getBase());
  // A local array or shared memory is not memory the runtime copies.
  if (const auto *DR = dyn_cast<DeclRefExpr>(Base))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && V->getType()->isArrayType() && (V->isLocalVarDecl() || V->hasAttr<CUDASharedAttr>()))
      return false;
  if (!Base->getType()->isPointerType() && !Base->getType()->isArrayType())
    return false; // the index is the pointer: i[A]
  R.Base = AS->getBase();
  R.Index = AS->getIdx();
  *Out = R;
  return true;
}

FormBuilder::FormBuilder(const FunctionDecl *Kernel, const WriteSet &Writes, ASTContext &Ctx)
    : Kernel(Kernel), Writes(Writes), Ctx(Ctx), Values(Writes.locals().of(Kernel)),
      ReadsOtherDimensions(irregfix::readsOtherDimensions(Kernel)) {}

void FormBuilder::setLoopVars(const std::vector<const VarDecl *> &Vars) {
  if (Vars == LoopVars)
    return;
  LoopVars = Vars;
  Spreads.clear();
}

void FormBuilder::setLoadedParams(std::set<const ParmVarDecl *> Params) {
  if (Params == LoadedParams)
    return;
  LoadedParams = std::move(Params);
  Spreads.clear();
}

FormRef FormBuilder::of(const Expr *E) { return build(E, 0); }

FormRef FormBuilder::sum(const Expr *Offset, FormRef Index) { return op("+", {build(Offset, 0), std::move(Index)}, Offset); }

FormRef FormBuilder::readOf(const Expr *E) {
  MemoryRead R;
  if (!asMemoryRead(E, &R))
    return nullptr;
  return load(R, 0);
}

FormRef FormBuilder::indexOf(const MemoryRead &R) { return element(R, 0); }

FormRef FormBuilder::element(const MemoryRead &R, int Depth) {
  auto Constant = [](long long V) {
    Form C;
    C.K = Form::Const;
    C.Value = V;
    return make(std::move(C));
  };
  FormRef Element = R.Index ? build(R.Index, Depth + 1) : Constant(0);
  for (auto Row = R.Rows.rbegin(); Row != R.Rows.rend(); ++Row)
    Element = op("+", {op("*", {build(Row->Index, Depth + 1), Constant(static_cast<long long>(Row->Stride))}, Row->Index),
                       Element},
                 R.Read);
  return Element;
}

FormRef FormBuilder::load(const MemoryRead &R, int Depth) {
  const Expr *Base = R.Base;
  Form F;
  F.K = Form::Load;
  F.Source = R.Read;
  F.Field = R.Field;
  F.Array = Frames.empty() ? WriteSet::exactPointer(Base, Writes) : namedMemory(Base, Writes, &Frames.back().Scope);
  if (F.Array && !F.Array.type()->isPointerType() && !F.Array.type()->isArrayType())
    F.Array = ArrayRef(); // an object, not an array
  FormRef Element = element(R, Depth);
  // Through a local pointer into an array (`nodes[c]`, nodes = P + 8 * e): P at the sum.
  if (!F.Array && Frames.empty()) {
    PointerInto Into = pointerInto(Base, Writes);
    F.Array = Into.Array;
    F.Why = Into.Why;
    for (const Expr *Offset : Into.Offsets)
      Element = op("+", {build(Offset, Depth + 1), Element}, Offset);
  }
  F.Ops.push_back(std::move(Element));
  return make(std::move(F));
}

FormRef FormBuilder::variable(const VarDecl *V, const Expr *At, int Depth) {
  if (!Frames.empty()) { // a parameter of the function inlined: its argument
    const int I = parameterIndex(V, &Frames.back().Scope);
    if (I >= 0)
      return I < static_cast<int>(Frames.back().Args.size()) ? Frames.back().Args[I]
                                                             : unknown("a default argument", true, At);
  }
  if (std::find(LoopVars.begin(), LoopVars.end(), V) != LoopVars.end()) {
    Form F;
    F.K = Form::LoopVar;
    F.Var = V;
    F.Source = At;
    return make(std::move(F));
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    if (P->getDeclContext() != Kernel)
      return unknown("parameter " + quoted(P) + " of another function", true, At);
    if (LoadedParams.count(P))
      return unknown("parameter " + quoted(P) + " is given a value loaded from memory by a call", true, At);
    if (Writes.writesScalar(P))
      return unknown("parameter " + quoted(P) + " is assigned in the kernel",
                     assignedFromMemory(P, Kernel->getBody()), At);
    Form F;
    F.K = Form::Invariant;
    F.Var = P;
    F.Source = At;
    return make(std::move(F));
  }
  if (isDeviceSymbol(V)) {
    if (Writes.writtenSymbols().count(V))
      return unknown("__device__ variable " + quoted(V) + " is written in the kernel", true, At);
    Form F; // a value in memory that no thread changes during the launch
    F.K = Form::Invariant;
    F.Var = V;
    F.Source = At;
    return make(std::move(F));
  }
  if (!V->isLocalVarDecl())
    return unknown("variable " + quoted(V) + " is not a local of the kernel", true, At);
  return local(V, At, At, Depth);
}

// V's value just before (or at) the statement Pos; At is the expression the form stands for.
FormRef FormBuilder::local(const VarDecl *V, const Stmt *Pos, const Expr *At, int Depth) {
  LocalValue L = Values.at(V, Pos, Ctx);
  if (L.K == LocalValue::None) {
    // Not one value: whether any of its values comes from memory.
    auto Known = Frames.empty() ? Spreads.find({V, Depth}) : Spreads.end();
    Spread Sp;
    if (Known != Spreads.end()) {
      Sp = Known->second;
    } else {
      // A value chosen by a loaded one (a probe stepped until it finds its
      // key) is what to say even where the values themselves load too. Once
      // that is known there is nothing more to learn (a register of a sorting
      // network has dozens of definitions, each followed in turn).
      for (const Expr *D : Values.definitions(V)) {
        if (!Sp.MayLoad && (readsMemory(D) || build(D, Depth + 8)->dependsOnLoad()))
          Sp.MayLoad = true;
        if (chosenByLoad(D, Depth)) {
          Sp.MayLoad = Sp.ChosenByLoad = true;
          break;
        }
      }
      if (Frames.empty())
        Spreads.emplace(std::make_pair(V, Depth), Sp);
    }
    return unknown(Sp.ChosenByLoad ? "local " + quoted(V) + " is set under a condition on values loaded from memory"
                                   : L.Why,
                   Sp.MayLoad, At);
  }
  // A local may hold other values at other places: its forms are kept by definition.
  const LocalKey Key{V, L.Value, L.Cond, L.Then, L.ElseBefore};
  auto It = Locals.find(Key);
  if (It != Locals.end())
    return It->second;
  FormRef F;
  if (L.K == LocalValue::Single)
    F = build(L.Value, Depth + 1);
  else
    F = op("?:",
           {build(L.Cond, Depth + 1), build(L.Then, Depth + 1),
            L.ElseBefore ? local(V, L.ElseBefore, At, Depth + 1) : build(L.Else, Depth + 1)},
           At);
  Locals.emplace(Key, F);
  return F;
}

// Whether which value a definition gives depends on memory through control:
// an if, switch or loop around it tests a loaded value, or a loop around it
// stops on one (`for (x = 0; x < n; ++x) if (cdf[x] >= u) { i = x; break; }`).
bool FormBuilder::chosenByLoad(const Expr *Def, int Depth) {
  auto Loaded = [&](const Expr *Cond) {
    return Cond && (readsMemory(Cond) || build(Cond, Depth + 8)->dependsOnLoad());
  };
  const Stmt *Child = Def;
  for (const Stmt *P = parentStmt(Def, Ctx); P && P != Kernel->getBody(); Child = P, P = parentStmt(P, Ctx)) {
    if (const auto *If = dyn_cast<IfStmt>(P); If && Child != If->getCond() && Loaded(If->getCond()))
      return true;
    if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P); CO && Child != CO->getCond() &&
                                                                     Loaded(CO->getCond()))
      return true;
    if (const auto *Sw = dyn_cast<SwitchStmt>(P); Sw && Child != Sw->getCond() && Loaded(Sw->getCond()))
      return true;
    const Expr *LoopCond = nullptr;
    const Stmt *LoopBody = nullptr;
    if (const auto *F = dyn_cast<ForStmt>(P)) {
      LoopCond = F->getCond();
      LoopBody = F->getBody();
    } else if (const auto *W = dyn_cast<WhileStmt>(P)) {
      LoopCond = W->getCond();
      LoopBody = W->getBody();
    } else if (const auto *D = dyn_cast<DoStmt>(P)) {
      LoopCond = D->getCond();
      LoopBody = D->getBody();
    }
    if (LoopBody && (Loaded(LoopCond) || leavesOnLoad(LoopBody, Loaded)))
      return true;
  }
  return false;
}

FormRef FormBuilder::build(const Expr *E, int Depth) {
  checkAnalysisBudget();
  if (!E)
    return unknown("no expression", false, E);
  if (Depth > 48)
    return unknown("the expression is nested too deeply", true, E);
  const Expr *S = strip(E);
  // A conversion to char or short on the way: its value is E's, not S's.
  const bool Narrowed = narrowsBelowInt(E);
  if (const std::optional<llvm::APSInt> C = constantOf(Narrowed ? E : S); C && C->getSignificantBits() <= 64) {
    Form F;
    F.K = Form::Const;
    F.Value = Narrowed ? C->getExtValue() : C->getSExtValue();
    F.Source = E;
    return make(std::move(F));
  }
  if (Narrowed)
    return spelledUnknown("it converts '", S, "' to a type narrower than int, which may change its value", Ctx,
                          readsMemory(S), E);
  // The thread's position other than its global index (threadIdx.y,
  // blockIdx.x alone...): never the index itself.
  if (isBuiltinRead(S)) {
    const BuiltinIndexRead B = builtinIndexRead(S);
    Form F;
    F.K = Form::Position;
    F.Shape = B.Var == "blockDim" || B.Var == "gridDim";
    F.Name = (B.Var + "." + B.Field).str();
    F.Source = S;
    return make(std::move(F));
  }
  // The global index (of x, y or z) is a sum or a local that holds one.
  const auto *Sum = dyn_cast<BinaryOperator>(S);
  if (isa<DeclRefExpr>(S) || (Sum && Sum->getOpcode() == BO_Add)) {
    if (isGlobalThreadIndex(S, Writes)) {
      Form F;
      F.K = Form::Thread;
      F.Source = E;
      return make(std::move(F));
    }
    // i + nx * j (+ nx * ny * k): one index of a 2-D or 3-D thread space, as
    // written or in a local. Whether it numbers the threads one to one is the
    // site's to ask (countActiveThreads), where its guards are known.
    if (ReadsOtherDimensions && asLinearThreadIndex(S, Writes)) {
      Form F;
      F.K = Form::Thread;
      F.Linear = true;
      F.Source = S;
      return make(std::move(F));
    }
    for (const char D : {'y', 'z'})
      if (isDimensionThreadIndex(S, D, Writes)) {
        Form F;
        F.K = Form::Position;
        F.Name = std::string("global ") + D;
        F.Source = S;
        return make(std::move(F));
      }
  }
  MemoryRead R;
  if (asMemoryRead(S, &R))
    return load(R, Depth);
  if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return variable(V, S, Depth);
    return unknown("it names " + quoted(DR->getDecl()), false, S);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    // g.n: a field of a by-value struct parameter the kernel never assigns.
    const Expr *Root = ME;
    while (const auto *M = dyn_cast<MemberExpr>(strip(Root))) {
      if (M->isArrow())
        return unknown("a member read through a pointer", true, S);
      Root = M->getBase();
    }
    const auto *DR = dyn_cast<DeclRefExpr>(strip(Root));
    const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
    if (P && P->getDeclContext() == Kernel && !Writes.writesScalar(P)) {
      Form F;
      F.K = Form::Invariant;
      F.Source = S;
      return make(std::move(F));
    }
    if (DR)
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()); V && V->isLocalVarDecl()) {
        // A member of a local struct: as the local (followed when never assigned).
        FormRef Local = variable(V, DR, Depth);
        if (!Local->known())
          return Local;
        return unknown("a member of local " + quoted(V), Local->dependsOnLoad(), S);
      }
    return unknown("a member of " + std::string(DR ? quoted(DR->getDecl()) : "an expression"), true, S);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Comma)
      return build(BO->getRHS(), Depth + 1);
    if (const char *Name = binaryName(BO->getOpcode()))
      return op(Name, {build(BO->getLHS(), Depth + 1), build(BO->getRHS(), Depth + 1)}, S);
    return unknown("an assignment", readsMemory(BO->getRHS()), S);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    switch (UO->getOpcode()) {
    case UO_Minus:
      return op("neg", {build(UO->getSubExpr(), Depth + 1)}, S);
    case UO_Plus:
      return build(UO->getSubExpr(), Depth + 1);
    case UO_Not:
      return op("~", {build(UO->getSubExpr(), Depth + 1)}, S);
    case UO_LNot:
      return op("!", {build(UO->getSubExpr(), Depth + 1)}, S);
    default:
      return unknown("an increment or an address", readsMemory(UO->getSubExpr()), S);
    }
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    return op("?:", {build(CO->getCond(), Depth + 1), build(CO->getTrueExpr(), Depth + 1),
                     build(CO->getFalseExpr(), Depth + 1)},
              S);
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      return unknown("an indirect call", true, S);
    std::vector<FormRef> Args;
    for (const Expr *A : C->arguments())
      Args.push_back(build(A, Depth + 1));
    if (computesFromArguments(C, F, Ctx.getSourceManager()))
      return op("call " + F->getNameAsString(), std::move(Args), S);
    // A function of the program: its value may come from memory it reads.
    const FunctionDecl *Def = F->getDefinition();
    if (Def && !readsMemory(Def->getBody()) && !isa<CXXMethodDecl>(Def))
      return op("call " + F->getNameAsString(), std::move(Args), S);
    if (const Expr *Returned = inlinableReturn(F))
      return inlined(C, Returned, std::move(Args), Depth);
    return unknown("it calls " + quoted(F) + ", which may read memory", true, S);
  }
  if (isa<IntegerLiteral>(S) || isa<CharacterLiteral>(S) || isa<CXXBoolLiteralExpr>(S)) {
    Form F;
    F.K = Form::Const;
    F.Source = E;
    return make(std::move(F));
  }
  return unknown("an expression the analysis does not follow", readsMemory(S), S);
}

namespace {

// The operands an integer operation evaluates whatever their values (no
// short circuit, no choice): when one of them does not fold, the operation
// does not either.
llvm::SmallVector<const Expr *, 2> evaluatedOperands(const Expr *E) {
  if (const auto *P = dyn_cast<ParenExpr>(E))
    return {P->getSubExpr()};
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    switch (C->getCastKind()) {
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_NoOp:
      return {C->getSubExpr()};
    default:
      return {};
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    switch (U->getOpcode()) {
    case UO_Minus:
    case UO_Plus:
    case UO_Not:
    case UO_LNot:
      return {U->getSubExpr()};
    default:
      return {};
    }
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    switch (B->getOpcode()) {
    case BO_Mul:
    case BO_Div:
    case BO_Rem:
    case BO_Add:
    case BO_Sub:
    case BO_Shl:
    case BO_Shr:
    case BO_LT:
    case BO_GT:
    case BO_LE:
    case BO_GE:
    case BO_EQ:
    case BO_NE:
    case BO_And:
    case BO_Xor:
    case BO_Or:
      return {B->getLHS(), B->getRHS()};
    default:
      return {};
    }
  }
  return {};
}

// Leaves whose folding is known without asking Clang's evaluator (which sets
// up a whole evaluation for each): an integer literal is its value; a
// parameter's value is unknown outside a call (Clang never folds one); a
// builtin index read (threadIdx.x in Clang's CUDA headers) calls a getter that
// is not constexpr.
enum class Leaf { Other, Literal, NeverFolds };

Leaf leafKind(const Expr *E) {
  if (isa<IntegerLiteral>(E))
    return Leaf::Literal;
  const Expr *Inner = E->IgnoreParens();
  if (const auto *C = dyn_cast<ImplicitCastExpr>(Inner); C && C->getCastKind() == CK_LValueToRValue)
    Inner = C->getSubExpr()->IgnoreParens();
  if (const auto *DR = dyn_cast<DeclRefExpr>(Inner); DR && isa<ParmVarDecl>(DR->getDecl()))
    return Leaf::NeverFolds;
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E); PO && isa<MSPropertyRefExpr>(PO->getSyntacticForm()))
    if (const auto *Call = dyn_cast_or_null<CallExpr>(PO->getResultExpr() ? PO->getResultExpr()->IgnoreParenImpCasts()
                                                                         : nullptr))
      if (const FunctionDecl *Getter = Call->getDirectCallee(); Getter && !Getter->isConstexpr() &&
                                                              !Getter->getBuiltinID())
        return Leaf::NeverFolds;
  return Leaf::Other;
}

bool evaluable(const Expr *E) {
  return !E->isValueDependent() && !E->isTypeDependent() && E->getType()->isIntegralOrEnumerationType();
}

} // namespace

std::optional<llvm::APSInt> FormBuilder::passedThrough(const Expr *E) {
  const Expr *Operand = nullptr;
  const auto *Cast = dyn_cast<CastExpr>(E);
  if (const auto *P = dyn_cast<ParenExpr>(E))
    Operand = P->getSubExpr();
  else if (Cast && Cast->getCastKind() == CK_IntegralCast && E->getType()->isIntegerType() &&
           !E->getType()->isBooleanType() && !E->getType()->isEnumeralType())
    Operand = Cast->getSubExpr();
  auto It = Operand ? Constants.find(Operand) : Constants.end();
  if (It == Constants.end() || !It->second)
    return std::nullopt;
  if (!Cast)
    return It->second;
  // What Clang's evaluator does to an integer converted to another integer type.
  llvm::APSInt Converted = It->second->extOrTrunc(Ctx.getIntWidth(E->getType()));
  Converted.setIsUnsigned(E->getType()->isUnsignedIntegerOrEnumerationType());
  return Converted;
}

std::optional<llvm::APSInt> FormBuilder::constantOf(const Expr *E) {
  if (!evaluable(E))
    return std::nullopt;
  if (auto It = Constants.find(E); It != Constants.end())
    return It->second;
  std::optional<llvm::APSInt> Value;
  bool OperandFails = false;
  for (const Expr *O : evaluatedOperands(E))
    if (evaluable(O) && !constantOf(O)) {
      OperandFails = true;
      break;
    }
  const Leaf Kind = leafKind(E);
  Expr::EvalResult R;
  if (Kind == Leaf::Literal)
    Value = llvm::APSInt(cast<IntegerLiteral>(E)->getValue(), E->getType()->isUnsignedIntegerOrEnumerationType());
  else if (OperandFails || Kind == Leaf::NeverFolds)
    ;
  else if (std::optional<llvm::APSInt> Passed = passedThrough(E))
    Value = std::move(Passed);
  else if (E->EvaluateAsInt(R, Ctx) && R.Val.isInt())
    Value = R.Val.getInt();
  Constants.try_emplace(E, Value);
  return Value;
}

FormRef FormBuilder::inlined(const CallExpr *C, const Expr *Returned, std::vector<FormRef> Args, int Depth) {
  InlineScope Scope = enterCall(C, Writes, Frames.empty() ? nullptr : &Frames.back().Scope);
  std::vector<const FunctionDecl *> Open;
  for (const Frame &Fr : Frames)
    Open.push_back(Fr.Scope.Callee);
  if (std::string Why = inlineProblem(C, Scope, Open); !Why.empty())
    return unknown(Why, true, C);
  if (isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(Scope.Callee) && !Args.empty())
    Args.erase(Args.begin()); // the object, not an argument (as callArguments)
  Frames.push_back(Frame{std::move(Scope), std::move(Args)});
  FormRef R = build(Returned, Depth + 1);
  Frames.pop_back();
  return R;
}

std::string Form::why() const {
  if (!Spelled)
    return Why;
  return WhyBefore + spelledText(Spelled, *SpelledIn, 48) + WhyAfter;
}

std::string Form::unknownWhy() const {
  if (K == Unknown)
    return why();
  for (const FormRef &O : Ops)
    if (!O->known()) // a known part has no Unknown to name
      if (std::string W = O->unknownWhy(); !W.empty())
        return W;
  return "";
}

bool Form::uses(const VarDecl *V) const {
  if (K == LoopVar && Var == V)
    return true;
  for (const FormRef &O : Ops)
    if (O->uses(V))
      return true;
  return false;
}

void Form::loopVars(std::set<const VarDecl *> &Out) const {
  if (K == LoopVar)
    Out.insert(Var);
  for (const FormRef &O : Ops)
    O->loopVars(Out);
}

void Form::loads(std::vector<const Form *> &Out) const {
  if (K == Load)
    Out.push_back(this);
  for (const FormRef &O : Ops)
    O->loads(Out);
}

void Form::positions(std::vector<const Form *> &Out) const {
  if (K == Position)
    Out.push_back(this);
  for (const FormRef &O : Ops)
    O->positions(Out);
}

std::string Form::str() const {
  switch (K) {
  case Position:
    return Name;
  case Const:
    return std::to_string(Value);
  case Thread:
    return "t";
  case LoopVar:
    return Var->getNameAsString();
  case Invariant:
    return Var ? Var->getNameAsString() : "invariant";
  case Load:
    return (Array ? Array.spelling() : std::string("memory")) + "[" + Ops[0]->str() + "]" +
           (Field ? "." + Field->getNameAsString() : "");
  case Op: {
    if (Ops.size() == 2 && Name.size() <= 2)
      return "(" + Ops[0]->str() + " " + Name + " " + Ops[1]->str() + ")";
    std::string Out = Name + "(";
    for (size_t I = 0; I < Ops.size(); ++I)
      Out += (I ? ", " : "") + Ops[I]->str();
    return Out + ")";
  }
  case Unknown:
    return "?";
  }
  return "?";
}

} // namespace irregfix
