#include "Transform/Indexed/IndexKernels.h"
#include "Analysis/AstUtil.h"
#include "Analysis/IndexForm.h"
#include "Analysis/LocalValues.h"
#include "Analysis/PointerAliases.h"
#include "Analysis/ThreadIndex.h"
#include "Analysis/WriteSet.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/LaunchSpelling.h"
#include "Transform/SourceText.h"
#include "Transform/ThreadCount.h"

#include "clang/AST/ExprCXX.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace irregfix::indexed {

std::string firstName(unsigned I) { return "__irregfix_first" + std::to_string(I); }
std::string innerFirstName(unsigned I, unsigned L) { return firstName(I) + "_" + std::to_string(L); }
std::string baseName(unsigned I) { return "__irregfix_base" + std::to_string(I); }
std::string stepName(unsigned I, unsigned L) {
  return "__irregfix_step" + std::to_string(I) + (L ? "_" + std::to_string(L) : std::string());
}
std::string innerEndName(unsigned I, unsigned L) {
  return "__irregfix_end" + std::to_string(I) + "_" + std::to_string(L);
}
std::string innerLengthName(unsigned I, unsigned L) {
  return "__irregfix_trips" + std::to_string(I) + "_" + std::to_string(L);
}

namespace {

std::string stepFunctionName(const FunctionDecl *K, unsigned I) {
  return inkernel::transformedKernelName(K) + "_indexed" + std::to_string(I);
}
std::string lengthsKernelName(const FunctionDecl *K, unsigned I) {
  return inkernel::transformedKernelName(K) + "_lengths" + std::to_string(I);
}
std::string indicesKernelName(const FunctionDecl *K, unsigned I) {
  return inkernel::transformedKernelName(K) + "_indices" + std::to_string(I);
}

// A kernel expression rewritten to be computed outside the kernel, in an index
// kernel whose thread is __irregfix_t and (loop sites) whose iteration is
// __irregfix_first + __irregfix_iter: the thread index and the loop variable
// replaced, locals replaced by their initialisers, every load checked.
class IndexText {
public:
  IndexText(const Site &S, const WriteSet &W, ASTContext &Ctx)
      : S(S), W(W), Ctx(Ctx), SM(Ctx.getSourceManager()), LO(Ctx.getLangOpts()), Values(W.locals().of(S.Kernel)),
        LinearSite(S.ThreadIndex && !S.ActiveExtents.empty()) {}

  std::string of(const Expr *E) { return gen(E, 0); }
  std::string Why; // set when some expression could not be rewritten
  // The site's loop variables, each as the index kernels compute it from the iteration.
  std::map<const VarDecl *, std::string> LoopVars;

private:
  std::string typeOf(const Expr *E) {
    // Written once for every instantiation of a kernel template: a type that
    // came from a template parameter may differ between them.
    if (dependsOnTemplate(E->getType()))
      return fail("a type depends on the kernel template's parameters");
    return E->getType().getUnqualifiedType().getCanonicalType().getAsString(Ctx.getPrintingPolicy());
  }

  bool dependsOnTemplate(QualType T) {
    for (int Steps = 0; !T.isNull() && Steps < 32; ++Steps) {
      if (isa<SubstTemplateTypeParmType>(T.getTypePtr()) || T->isInstantiationDependentType())
        return true;
      QualType Next = T.getSingleStepDesugaredType(Ctx);
      if (Next == T)
        break;
      T = Next;
    }
    return false;
  }

  std::string fail(const std::string &Reason) {
    if (Why.empty())
      Why = Reason;
    return "0";
  }

  std::string gen(const Expr *E, int Depth) {
    if (!Why.empty())
      return "0"; // one reason is all the caller takes: nothing more to write
    std::string T = genUnchecked(E, Depth);
    // A local read in both arms of the selection that gives its next value is
    // written out twice at each step: the text doubles per step.
    if (T.size() > kMaxIndexText)
      return fail("its index expression would be longer than " + std::to_string(kMaxIndexText) + " characters");
    return T;
  }

  static constexpr size_t kMaxIndexText = 1 << 16;

  std::string genUnchecked(const Expr *E, int Depth) {
    if (!E)
      return fail("an expression is missing");
    if (Depth > 64)
      return fail("an expression is nested too deeply");
    const Expr *X = E->IgnoreImplicit();
    // A site numbered as the launch is: its index kernels run with the
    // kernel's grid and blocks, where every builtin index means what it
    // means in the kernel; the thread's position is written as it is.
    if (S.LaunchNumbered) {
      if (isAnyBuiltinIndexRead(X))
        return text(X);
    // The site's thread, which the index kernels number 0 .. n-1 in one dimension.
    } else if (LinearSite) {
      if ((isa<DeclRefExpr>(strip(X)) || isa<BinaryOperator>(strip(X))) && asLinearThreadIndex(X, W)) {
        if (!sameThreadIndex(X, S.ThreadIndex, W, Ctx))
          return fail("it uses a linear thread index other than the site's");
        return "((" + typeOf(X) + ")__irregfix_t)";
      }
      if (isGlobalThreadIndex(X, W))
        return fail("it uses the x index alone beside the site's linear thread index");
    } else if (isGlobalThreadIndex(X, W)) {
      return "((" + typeOf(X) + ")__irregfix_t)";
    }
    // Any other read of threadIdx, blockIdx, blockDim or gridDim means
    // something else in the index kernels' own launch (the analysis numbers
    // such sites as the launch does).
    if (isAnyBuiltinIndexRead(X))
      return fail("it reads the thread's position or the launch's shape ('" + text(X) + "')");
    const InlineScope *Scope = Frames.empty() ? nullptr : &Frames.back().Scope;
    if (const auto *DR = dyn_cast<DeclRefExpr>(X)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (const int I = parameterIndex(V, Scope); I >= 0) // a parameter of the function inlined
        return I < static_cast<int>(Frames.back().Args.size()) ? "(" + Frames.back().Args[I] + ")"
                                                               : fail("a default argument");
      if (auto It = V ? LoopVars.find(V) : LoopVars.end(); It != LoopVars.end())
        return "((" + typeOf(X) + ")" + It->second + ")";
      if (V && V->isLocalVarDecl() && !isa<ParmVarDecl>(V))
        return local(V, X, Depth);
      return text(X);
    }
    MemoryRead M;
    if (asMemoryRead(X, &M)) {
      ArrayRef A = Scope ? namedMemory(M.Base, W, Scope) : WriteSet::exactPointer(M.Base, W);
      std::string Index = flatIndexText(M.Rows, M.Index ? gen(M.Index, Depth + 1) : "0",
                                        [&](const Expr *Row) { return gen(Row, Depth + 1); }, "(long long)");
      if (!A && !Scope) { // through a local pointer into the array: at the offset's sum
        PointerInto Into = pointerInto(M.Base, W);
        A = Into.Array;
        for (const Expr *Offset : Into.Offsets)
          Index = "(long long)(" + gen(Offset, Depth + 1) + ") + (long long)(" + Index + ")";
      }
      auto It = std::find(S.IndexSources.begin(), S.IndexSources.end(), A);
      if (!A || It == S.IndexSources.end())
        return fail("a load of an array the site does not name");
      return "irregfix::checked_load(" + firstElementSpelling(A) + ", (long long)(" + Index + "), __irregfix_x, " +
             std::to_string(It - S.IndexSources.begin()) + ", __irregfix_ok)" +
             (M.Field ? "." + M.Field->getNameAsString() : "");
    }
    if (const auto *C = dyn_cast<CallExpr>(X))
      if (const Expr *Returned = inlinableReturn(C->getDirectCallee()))
        return inlined(C, Returned, Depth);
    if (Scope && (isa<MemberExpr>(X) || isa<CXXThisExpr>(X))) { // this->n: the object's field, by name
      const ArrayRef Named = namedMemory(X, W, Scope);
      return Named && Named.isField() ? Named.spelling() : fail("a member of an object the launch cannot name");
    }
    return spliced(X, Depth);
  }

  // A call of a small function (Analysis/InlineCalls.h): what it returns, its
  // parameters replaced by its arguments and its object's fields by name.
  std::string inlined(const CallExpr *C, const Expr *Returned, int Depth) {
    InlineScope Scope = enterCall(C, W, Frames.empty() ? nullptr : &Frames.back().Scope);
    std::vector<const FunctionDecl *> Open;
    for (const Frame &F : Frames)
      Open.push_back(F.Scope.Callee);
    if (std::string Why = inlineProblem(C, Scope, Open); !Why.empty())
      return fail(Why);
    std::vector<std::string> Args;
    for (const Expr *A : callArguments(C, Scope.Callee))
      Args.push_back(gen(A, Depth + 1));
    Frames.push_back(Frame{std::move(Scope), std::move(Args)});
    std::string T = "(" + gen(Returned, Depth + 1) + ")";
    Frames.pop_back();
    return T;
  }

  // V's value just before (or at) Pos.
  std::string local(const VarDecl *V, const Stmt *Pos, int Depth) {
    if (Depth > 64)
      return fail("an expression is nested too deeply");
    LocalValue L = Values.at(V, Pos, Ctx);
    if (L.K == LocalValue::Single)
      return "(" + gen(L.Value, Depth + 1) + ")";
    if (L.K == LocalValue::Select)
      return "((" + gen(L.Cond, Depth + 1) + ") ? (" + gen(L.Then, Depth + 1) + ") : (" +
             (L.ElseBefore ? local(V, L.ElseBefore, Depth + 1) : gen(L.Else, Depth + 1)) + "))";
    return fail(L.Why);
  }

  std::string text(const Expr *E) {
    std::string T = sourceText(E->getSourceRange(), SM, LO);
    if (T.empty())
      return fail("an expression is written through a macro");
    return T;
  }

  // E's text with its children rewritten in place.
  std::string spliced(const Expr *E, int Depth) {
    CharSourceRange R = fileRange(E->getSourceRange(), SM, LO);
    if (R.isInvalid())
      return fail("an expression is written through a macro");
    const unsigned Begin = SM.getFileOffset(R.getBegin());
    std::string T = text(E);
    std::vector<std::tuple<unsigned, unsigned, std::string>> Edits; // offset in T, length, text
    for (const Stmt *C : E->children()) {
      const auto *CE = dyn_cast_or_null<Expr>(C);
      if (!CE)
        continue;
      CharSourceRange CR = fileRange(CE->getSourceRange(), SM, LO);
      if (CR.isInvalid())
        continue; // implicit: no text of its own
      std::string Old = sourceText(CE->getSourceRange(), SM, LO);
      std::string New = gen(CE, Depth + 1);
      if (New == Old)
        continue;
      unsigned At = SM.getFileOffset(CR.getBegin());
      if (At < Begin || At - Begin + Old.size() > T.size())
        return fail("an expression's parts are out of order");
      Edits.push_back({At - Begin, static_cast<unsigned>(Old.size()), New});
    }
    std::sort(Edits.rbegin(), Edits.rend());
    for (auto &[At, Length, New] : Edits)
      T.replace(At, Length, New);
    return T;
  }

  const Site &S;
  const WriteSet &W;
  ASTContext &Ctx;
  const SourceManager &SM;
  const LangOptions &LO;
  const LocalValues &Values;
  const bool LinearSite; // the site's threads are numbered i + nx * j (+ nx * ny * k)
  // The calls being inlined, innermost last, with their arguments' text.
  struct Frame {
    InlineScope Scope;
    std::vector<std::string> Args;
  };
  std::vector<Frame> Frames;
};

} // namespace

std::string unwritableBecause(const KernelInfo &Info, unsigned I, ASTContext &Ctx) {
  llvm::Expected<std::string> D = definitions(Info, I, Ctx);
  if (D)
    return "";
  std::string Why = llvm::toString(D.takeError());
  llvm::StringRef Reason(Why);
  Reason.consume_front("indexed site: ");
  return Reason.str();
}

std::string prepareCall(const KernelInfo &Info, unsigned I, const std::string &Arguments) {
  std::string V = inkernel::viewName(I);
  return stepFunctionName(Info.Kernel, I) + inkernel::templateArguments(Info) + "(__irregfix_stream, __irregfix_grid, __irregfix_block" +
         (Arguments.empty() ? "" : ", " + Arguments) + ", &" + V + ", " + V + "_out)";
}

llvm::Expected<std::string> definitions(const KernelInfo &Info, unsigned I, ASTContext &Ctx) {
  const Site &S = Info.Sites[I];
  const FunctionDecl *K = Info.Kernel;
  const WriteSet &W = Info.Writes;
  IndexText Text(S, W, Ctx);
  const bool Loop = S.IndexedLoop.Loop != nullptr;
  // The loops whose iterations the site copies over, outermost first.
  std::vector<const LoopShape *> Loops;
  if (Loop) {
    Loops.push_back(&S.IndexedLoop);
    for (const LoopShape &L : S.IndexedInnerLoops)
      Loops.push_back(&L);
  }
  // One loop stepping by one: its iteration is `__irregfix_iter`. Otherwise
  // each loop L has its locals (__irregfix_first<L>, ..._trips<L>; L = 0 has
  // no number), and an iteration of the nest is split into each loop's
  // (__irregfix_at<L>), the innermost fastest.
  const bool Plain = Loops.size() == 1 && !S.IndexedLoop.Step;
  auto Suffix = [](size_t L) { return L == 0 ? std::string() : std::to_string(L); };
  std::string First, End;
  std::vector<std::string> Firsts, Ends, Steps;
  for (size_t L = 0; L < Loops.size(); ++L) {
    Firsts.push_back(Text.of(Loops[L]->First));
    const std::string E = Text.of(Loops[L]->End);
    Ends.push_back(Loops[L]->EndInclusive ? "(" + E + ") + 1" : E);
    Steps.push_back(Loops[L]->Step ? Text.of(Loops[L]->Step) : "");
    const std::string N = Suffix(L);
    Text.LoopVars[Loops[L]->Var] =
        Plain ? "(__irregfix_first + __irregfix_iter)"
              : "(__irregfix_first" + N + " + __irregfix_at" + std::to_string(L) +
                    (Loops[L]->Step ? " * __irregfix_step" + N : std::string()) + ")";
  }
  if (Loop) {
    First = Firsts[0];
    End = Ends[0];
  }
  // Loop L's first value, end, step and trip count, as locals of an index kernel.
  auto LoopLocals = [&](size_t L, const std::string &In = "  ") {
    const std::string N = Suffix(L), F = "__irregfix_first" + N, E = "__irregfix_end" + N;
    std::string Out = In + "const long long " + F + " = (long long)(" + Firsts[L] + ");\n" + In + "const long long " +
                      E + " = (long long)(" + Ends[L] + ");\n";
    std::string Count = E + " - " + F;
    if (!Steps[L].empty()) { // positive (the analysis proves it)
      Out += In + "const long long __irregfix_step" + N + " = (long long)(" + Steps[L] + ");\n";
      Count = "(" + Count + " + __irregfix_step" + N + " - 1) / __irregfix_step" + N;
    }
    return Out + In + "const long long __irregfix_trips" + N + " = " + E + " > " + F + " ? " + Count + " : 0;\n";
  };
  std::vector<std::string> Indices;
  for (const Site::IndexedCopy &C : S.Indices) {
    std::string Index =
        flatIndexText(C.Rows, Text.of(C.Index), [&](const Expr *Row) { return Text.of(Row); }, "(long long)");
    for (const Expr *Offset : C.Offsets) // a read through a local pointer into the array
      Index = "(long long)(" + Text.of(Offset) + ") + (long long)(" + Index + ")";
    Indices.push_back(Index);
  }
  if (!Text.Why.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "indexed site: " + Text.Why);

  // A kernel template's generated functions are templates of its parameters,
  // their parameters typed as the template writes them.
  const std::string Params = inkernel::parameterList(inkernel::sourceDecl(Info), Ctx);
  const std::string Args = inkernel::argumentList(inkernel::sourceDecl(Info));
  const std::string Template = inkernel::templateHeader(Info, Ctx);
  const std::string TemplateArgs = inkernel::templateArguments(Info);
  const std::string Sep = Params.empty() ? "" : ", ";
  const std::string SiteInfo = inkernel::siteInfoName(K, I);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "// irregfix: the element indices of the reads of '" << K->getName()
     << "' that its indexed site " << I << " copies, computed outside it: every thread's, every load checked.\n";
  // The index kernels of a site numbered as the launch is run with the
  // launch's grid and blocks; the others with blocks of 256 in one dimension.
  const std::string Thread = S.LaunchNumbered
                                 ? "  const long long __irregfix_t = irregfix::launch_thread();\n"
                                 : "  const long long __irregfix_t = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n";
  const std::string Configuration = S.LaunchNumbered ? "<<<__irregfix_grid, __irregfix_block, 0, __irregfix_stream>>>("
                                                     : "<<<__irregfix_blocks, 256, 0, __irregfix_stream>>>(";
  if (Loop) {
    OS << Template << "static __global__ void " << lengthsKernelName(K, I) << "(" << Params << Sep
       << "long long __irregfix_n, irregfix::IndexExtents __irregfix_x, int *__irregfix_len) {\n"
       << Thread << "  if (__irregfix_t >= __irregfix_n)\n    return;\n"
       << "  [[maybe_unused]] bool __irregfix_ok = true;\n";
    if (Plain) {
      OS << "  const long long __irregfix_first = (long long)(" << First << ");\n"
         << "  const long long __irregfix_end = (long long)(" << End << ");\n"
         << "  __irregfix_len[__irregfix_t] = __irregfix_ok && __irregfix_end > __irregfix_first ? "
            "(int)(__irregfix_end - __irregfix_first) : 0;\n}\n";
    } else if (S.IndexedRagged) {
      // A ragged nest's iterations: the inner loop's trip counts summed over
      // the outer loop's iterations, at most INT_MAX.
      OS << "  long long __irregfix_count = 0;\n"
         << LoopLocals(0)
         << "  for (long long __irregfix_at0 = 0; __irregfix_at0 < __irregfix_trips && __irregfix_count < "
            "0x7fffffffLL; ++__irregfix_at0) {\n"
         << LoopLocals(1, "    ")
         << "    __irregfix_count = __irregfix_count > 0x7fffffffLL - __irregfix_trips1 ? 0x7fffffffLL : "
            "__irregfix_count + __irregfix_trips1;\n  }\n"
         << "  __irregfix_len[__irregfix_t] = __irregfix_ok ? (int)__irregfix_count : 0;\n}\n";
    } else {
      // The nest's iterations: the product of its loops' trip counts, at
      // most INT_MAX (a larger count asks for more than any copy may hold).
      OS << "  long long __irregfix_count = 1;\n";
      for (size_t L = 0; L < Loops.size(); ++L) {
        const std::string Len = "__irregfix_trips" + Suffix(L);
        OS << LoopLocals(L) << "  __irregfix_count = " << Len << " == 0 ? 0 : __irregfix_count > 0x7fffffffLL / "
           << Len << " ? 0x7fffffffLL : __irregfix_count * " << Len << ";\n";
      }
      OS << "  __irregfix_len[__irregfix_t] = __irregfix_ok ? (int)__irregfix_count : 0;\n}\n";
    }
  }
  OS << Template << "static __global__ void " << indicesKernelName(K, I) << "(" << Params << Sep
     << "irregfix::IndexExtents __irregfix_x, irregfix::View __irregfix_v";
  for (size_t A = 0; A < Indices.size(); ++A)
    OS << ", long long *__irregfix_idx" << A;
  OS << ") {\n" << Thread << "  if (__irregfix_t >= __irregfix_v.n)\n    return;\n";
  std::string Body;
  for (size_t A = 0; A < Indices.size(); ++A)
    Body += "  {\n    bool __irregfix_ok = true;\n    const long long __irregfix_i = (long long)(" + Indices[A] +
            ");\n    __irregfix_idx" + std::to_string(A) +
            "[irregfix::slot(__irregfix_v, __irregfix_t, __irregfix_iter)] = __irregfix_ok ? __irregfix_i : "
            "irregfix::kNoIndex;\n  }\n";
  auto Indent = [](const std::string &Text, const std::string &By) {
    std::string Out;
    for (char C : Text)
      Out += C == '\n' ? "\n" + By : std::string(1, C);
    return By + Out.substr(0, Out.size() - By.size());
  };
  if (Loop && S.IndexedRagged) {
    // The nest walked as the kernel walks it, one slot an inner iteration.
    OS << "  [[maybe_unused]] bool __irregfix_ok = true;\n"
       << LoopLocals(0) << "  long long __irregfix_iter = 0;\n"
       << "  const long long __irregfix_len = irregfix::length(__irregfix_v, __irregfix_t);\n"
       << "  for (long long __irregfix_at0 = 0; __irregfix_at0 < __irregfix_trips && __irregfix_iter < "
          "__irregfix_len; ++__irregfix_at0) {\n"
       << LoopLocals(1, "    ")
       << "    for (long long __irregfix_at1 = 0; __irregfix_at1 < __irregfix_trips1 && __irregfix_iter < "
          "__irregfix_len; ++__irregfix_at1, ++__irregfix_iter) {\n"
       << Indent(Body, "    ") << "    }\n  }\n";
  } else if (Loop) {
    OS << "  [[maybe_unused]] bool __irregfix_ok = true;\n";
    std::string Length = "irregfix::length(__irregfix_v, __irregfix_t)";
    if (Plain) {
      OS << "  const long long __irregfix_first = (long long)(" << First << ");\n";
    } else { // no iteration where a loop runs none (nothing to divide by)
      std::string Runs;
      for (size_t L = 0; L < Loops.size(); ++L) {
        OS << LoopLocals(L);
        Runs += (L ? " && __irregfix_trips" : "__irregfix_trips") + Suffix(L) + " > 0";
      }
      Length = "(" + Runs + ") ? " + Length + " : 0";
    }
    OS << "  for (int __irregfix_iter = 0, __irregfix_len = " << Length
       << "; __irregfix_iter < __irregfix_len; ++__irregfix_iter) {\n";
    if (!Plain) {
      OS << "    long long __irregfix_rest = __irregfix_iter;\n";
      for (size_t L = Loops.size() - 1; L >= 1; --L) {
        const std::string N = std::to_string(L);
        OS << "    const long long __irregfix_at" << N << " = __irregfix_rest % __irregfix_trips" << N << ";\n"
           << "    __irregfix_rest /= __irregfix_trips" << N << ";\n";
      }
      OS << "    const long long __irregfix_at0 = __irregfix_rest;\n";
    }
    OS << Indent(Body, "  ") << "  }\n";
  } else {
    OS << "  const int __irregfix_iter = 0;\n" << Body;
  }
  OS << "}\n";

  // The step function: asks the runtime, runs what it asks for, until ready.
  OS << Template << "static bool " << stepFunctionName(K, I)
     << "(cudaStream_t __irregfix_stream, [[maybe_unused]] dim3 __irregfix_grid, [[maybe_unused]] dim3 __irregfix_block"
     << Sep << Params
     << ", irregfix::View *__irregfix_view, const void **__irregfix_out) {\n";
  auto List = [&](const std::vector<std::string> &Items, const std::string &Type, const std::string &Name) {
    if (Items.empty()) {
      OS << "  " << Type << " *" << Name << " = nullptr;\n";
      return;
    }
    OS << "  " << Type << " " << Name << "[" << Items.size() << "] = {";
    for (size_t J = 0; J < Items.size(); ++J)
      OS << (J ? ", " : "") << Items[J];
    OS << "};\n";
  };
  std::vector<std::string> Arrays, Sizes, Sources, Scalars;
  for (const SiteArray &A : S.Arrays) {
    Arrays.push_back(launchSpelling(A.Array, Ctx));
    Sizes.push_back("sizeof(*" + Arrays.back() + ")");
  }
  for (const ArrayRef &A : S.IndexSources)
    Sources.push_back(launchSpelling(A, Ctx));
  for (const Expr *E : S.KeyScalars)
    Scalars.push_back("(long long)(" + sourceText(E->getSourceRange(), Ctx.getSourceManager(), Ctx.getLangOpts()) +
                      ")");
  // A copy numbered as the launch is holds that launch's shape: the key holds it.
  if (S.LaunchNumbered)
    for (const char *Dim : {"__irregfix_grid", "__irregfix_block"})
      for (const char *Field : {".x", ".y", ".z"})
        Scalars.push_back(std::string("(long long)") + Dim + Field);
  List(Arrays, "const void *const", "__irregfix_arrays");
  List(Sizes, "const size_t", "__irregfix_sizes");
  List(Sources, "const void *const", "__irregfix_sources");
  List(Scalars, "const long long", "__irregfix_scalars");
  const std::string N = activeThreadsText(S, Ctx);
  OS << "  irregfix::IndexedSite __irregfix_s;\n"
     << "  __irregfix_s.n = " << N << ";\n"
     << "  __irregfix_s.loop = " << (Loop ? 1 : 0) << ";\n"
     << "  __irregfix_s.count = " << Arrays.size() << ";\n"
     << "  __irregfix_s.arrays = __irregfix_arrays;\n"
     << "  __irregfix_s.elem_sizes = __irregfix_sizes;\n"
     << "  __irregfix_s.index_count = " << Sources.size() << ";\n"
     << "  __irregfix_s.index_arrays = __irregfix_sources;\n"
     << "  __irregfix_s.scalar_count = " << Scalars.size() << ";\n"
     << "  __irregfix_s.scalars = __irregfix_scalars;\n"
     << "  irregfix::IndexedWork __irregfix_w;\n"
     << "  bool __irregfix_ok = irregfix::prepare_indexed(" << SiteInfo
     << ", __irregfix_s, &__irregfix_w, __irregfix_view, __irregfix_out, __irregfix_stream);\n"
     << "  irregfix::IndexExtents __irregfix_x;\n"
     << "  bool __irregfix_known = false; // the index arrays' extents, asked once a build needs them\n"
     << (S.LaunchNumbered ? "" : "  const unsigned __irregfix_blocks = (unsigned)((__irregfix_s.n + 255) / 256);\n")
     << "  while (__irregfix_ok && __irregfix_w.step != irregfix::kIndexedReady) {\n"
     << "    if (!__irregfix_known && !(__irregfix_known = irregfix::index_extents(" << SiteInfo
     << ", __irregfix_sources, " << Sources.size() << ", &__irregfix_x)))\n"
     << "      return false;\n";
  if (Loop)
    OS << "    if (__irregfix_w.step == irregfix::kIndexedLengths)\n"
       << "      " << lengthsKernelName(K, I) << TemplateArgs << Configuration << Args << Sep
       << "__irregfix_s.n, __irregfix_x, __irregfix_w.len);\n"
       << "    else\n  ";
  OS << "    " << indicesKernelName(K, I) << TemplateArgs << Configuration << Args << Sep
     << "__irregfix_x, __irregfix_w.view";
  for (size_t A = 0; A < Indices.size(); ++A)
    OS << ", __irregfix_w.idx[" << A << "]";
  OS << ");\n"
     << "    __irregfix_ok = irregfix::continue_indexed(" << SiteInfo
     << ", &__irregfix_w, __irregfix_view, __irregfix_out, __irregfix_stream);\n"
     << "  }\n  return __irregfix_ok;\n}\n";
  return Out;
}

} // namespace irregfix::indexed
