#include "Frontend/CacheEdits.h"
#include "Analysis/AstUtil.h"
#include "Analysis/HostWrites.h"
#include "Transform/Invalidation.h"
#include "Transform/NumberingHooks.h"
#include "Transform/Positions/KernelRewriter.h"
#include "Transform/Positions/LaunchRewriter.h"
#include "Transform/SourceText.h"

#include <irregfix/pattern.h>

#include "clang/AST/Attr.h"

#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace irregfix {

namespace {

// The bodies that get an entry guard: every function that reaches such a
// launch drops the copies when it is entered from code the tool cannot see.
// Without a main() here that is how the file is used: say so.
std::vector<const Stmt *> guardedBodies(const MainFile &File, const RewrittenLaunches &Launches,
                                        const HostWriteAnalysis &Host, Messages &Msg) {
  std::vector<const Stmt *> Guarded;
  std::vector<const FunctionDecl *> Reaching = functionsReaching(File, Launches.In, Host);
  const bool HasMain = llvm::any_of(Reaching, [](const FunctionDecl *F) { return F->isMain(); });
  for (const FunctionDecl *F : Reaching) {
    // (Clang marks unannotated lambdas __host__ __device__ implicitly: they run on the host here.)
    const auto *Device = F->getAttr<CUDADeviceAttr>();
    if (!F->getBody() || (Device && !Device->isImplicit()))
      continue;
    Guarded.push_back(F->getBody());
    if (!HasMain && F->isExternallyVisible() && !isa<CXXMethodDecl>(F))
      Msg.remark(F->getLocation(), "cached copies are dropped whenever '" + F->getNameAsString() +
                                       "' is entered from another file: code there may have written their "
                                       "sources");
  }
  return Guarded;
}

// A reduction that would read its elements through the order (its sums'
// grouping kept) qualifies only where its variant can be written and every
// launch of it can call the variant (their edits kept in Out): else it is
// not indifferent after all.
void settleThroughOrder(KernelNumbering &K, const MainFile &File, const RewritableFiles &Files, ASTContext &Ctx,
                        ThroughOrderText &Out) {
  if (!K.ThroughOrder)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Def = K.Kernel ? K.Kernel->getDefinition() : nullptr;
  std::string Why;
  std::optional<tooling::Replacement> Variant;
  if (!Def || !Files.contains(Def->getLocation()))
    Why = "its definition is not in a file the tool rewrites";
  else if (llvm::Expected<std::string> Text = positions::rewriteKernel(K, Ctx); !Text)
    Why = llvm::toString(Text.takeError());
  else
    Variant = tooling::Replacement(SM, fileRange(Def->getSourceRange(), SM, Ctx.getLangOpts()).getEnd(), 0, *Text);
  std::map<const CUDAKernelCallExpr *, std::vector<tooling::Replacement>> Launches;
  for (auto [Call, Fn] : File.Launches) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Why.empty() || !Callee || Callee->getCanonicalDecl() != Def->getCanonicalDecl())
      continue;
    if (SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Call->getBeginLoc()), SM.getExpansionLoc(Def->getBeginLoc())))
      Why = "it is launched before its definition";
    else if (auto Edits = positions::rewriteLaunch(Call, Ctx); !Edits)
      Why = llvm::toString(Edits.takeError());
    else
      Launches.emplace(Call, std::move(*Edits));
  }
  if (Why.empty()) {
    Out.Variants.emplace(Def->getCanonicalDecl(), std::move(*Variant));
    Out.Launches.merge(Launches);
    return;
  }
  K.ThroughOrder = false;
  K.ElementReads.clear();
  K.NotBecause = K.RegroupedBecause + "; no variant reads it through the order: " + Why;
}

// The variants of the reductions read through the order that the domain's
// launches call, and those launches.
bool throughOrderEdits(const FileDomain &D, const ThroughOrderText &Text, FileEdits &Edits) {
  std::set<const KernelNumbering *> Written;
  for (const DomainLaunch &L : D.Launches) {
    if (!L.Kernel->ThroughOrder || L.Pointers.empty())
      continue;
    auto Launch = Text.Launches.find(L.Call);
    auto Variant = Text.Variants.find(L.Kernel->Kernel->getCanonicalDecl());
    if (Launch == Text.Launches.end() || Variant == Text.Variants.end())
      return false;
    for (const tooling::Replacement &R : Launch->second)
      if (!Edits.add(R))
        return false;
    if (Written.insert(L.Kernel).second && !Edits.add(Variant->second))
      return false;
  }
  return true;
}

// Program-wide renumbering, remarked either way where a kernel could order a
// domain.
void sayDomain(const FileDomain &D, Messages &Msg, FileResult &Result) {
  if (D.GraphKernels.empty())
    return;
  const FunctionDecl *Graph = D.GraphKernels.front()->Kernel;
  const char *GraphIs = D.GraphKernels.front()->GraphRows >= 0 ? "rows" : "neighbour list";
  // The report's row of each graph's site says it too.
  auto SayInReport = [&](const std::string &What) {
    for (const KernelNumbering *K : D.GraphKernels)
      for (SiteReport &S : Result.Sites)
        if (S.Kernel == K->Kernel->getNameAsString() &&
            S.Pattern == pattern_name(K->GraphRows >= 0 ? kPatternRange : kPatternNeighbors))
          S.Domain = What;
  };
  if (!D.formed()) {
    SayInReport("no: " + D.NoneBecause);
    Msg.remark(D.NoneAt ? D.NoneAt->getBeginLoc() : Graph->getLocation(),
               "no program-wide renumbering by '" + Graph->getNameAsString() + "''s " + GraphIs + ": " + D.NoneBecause);
    return;
  }
  std::string Arrays, Restoring, Regrouping, Through, Names;
  int ThroughCount = 0;
  std::set<std::string> Named; // variables of one name in several functions, said once
  for (const VarDecl *V : D.Arrays)
    if (Named.insert(V->getNameAsString()).second) {
      Arrays += (Arrays.empty() ? "'" : ", '") + V->getNameAsString() + "'";
      Names += (Names.empty() ? "" : ",") + V->getNameAsString();
    }
  SayInReport(Names);
  std::set<const KernelNumbering *> Said;
  for (const DomainLaunch &L : D.Launches) {
    if (L.Pointers.empty() || !Said.insert(L.Kernel).second)
      continue;
    if (!L.Kernel->indifferent())
      Restoring += (Restoring.empty() ? "" : "; ") + L.Kernel->Kernel->getNameAsString() + " (" +
                   L.Kernel->NotBecause + ")";
    else if (L.Kernel->ThroughOrder && ++ThroughCount)
      Through += (Through.empty() ? "'" : ", '") + L.Kernel->Kernel->getNameAsString() + "'";
    else if (L.Kernel->Reassociates)
      Regrouping += (Regrouping.empty() ? "'" : ", '") + L.Kernel->Kernel->getNameAsString() + "'";
  }
  Msg.remark(Graph->getLocation(),
             "program-wide renumbering: the runtime may keep " + Arrays + " in the locality order of '" +
                 Graph->getNameAsString() + "''s " + GraphIs + " across the launches of the kernels indifferent to "
                 "the numbering" + (Regrouping.empty() ? "" : "; --reassociate: the sums of " + Regrouping + " then group the "
                 "elements otherwise, and may differ from the original's in the last bits") +
                 (Through.empty() ? "" : "; " + Through + (ThroughCount > 1 ? " read" : " reads") +
                 " each element where the order keeps it, " + (ThroughCount > 1 ? "their" : "its") + " sums grouped "
                 "as the original's") +
                 (Restoring.empty() ? "" : "; these launches get them back as numbered: " + Restoring));
}

// Where the kernels' tables go: before the top-level declaration holding the
// first launch that calls irregfix::numbered_launch.
SourceLocation tablesAt(const MainFile &File, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Best;
  for (auto [Call, Fn] : File.Launches) {
    if (!Fn)
      continue;
    const Decl *Top = Fn;
    if (const FunctionTemplateDecl *T = Fn->getDescribedFunctionTemplate())
      Top = T;
    while (Top->getLexicalDeclContext() && !isa<TranslationUnitDecl>(Top->getLexicalDeclContext()))
      Top = cast<Decl>(Top->getLexicalDeclContext());
    if (const auto *FD = dyn_cast<FunctionDecl>(Top); FD && FD->getDescribedFunctionTemplate())
      Top = FD->getDescribedFunctionTemplate();
    SourceLocation L = SM.getExpansionLoc(Top->getSourceRange().getBegin());
    if (L.isValid() && (Best.isInvalid() || SM.isBeforeInTranslationUnit(L, Best)))
      Best = L;
  }
  return Best;
}

} // namespace

SettledDomain settleDomain(const MainFile &File, const std::vector<KernelDecision> &Decisions,
                           const RewritableFiles &Files, bool Reassociate, ASTContext &Ctx) {
  SettledDomain Out;
  ThroughOrderText &Variants = Out.Through;
  DomainInputs In;
  In.Launches = File.Launches;
  In.Calls = File.Calls;
  for (size_t I = 0; I < Decisions.size() && I < File.Kernels.size(); ++I) {
    KernelNumbering K;
    if (Decisions[I].LeftAsIs.empty())
      K = analyzeNumbering(Decisions[I].Info, Ctx, Reassociate);
    else {
      K.Kernel = File.Kernels[I];
      K.NotBecause = "its analysis ran past its budget";
    }
    settleThroughOrder(K, File, Files, Ctx, Variants);
    In.Kernels.emplace(File.Kernels[I]->getCanonicalDecl(), std::move(K));
  }
  In.InFiles = [&Files](const FunctionDecl *F) {
    const FunctionDecl *Def = F->getDefinition();
    return Def && Files.contains(Def->getLocation());
  };
  Out.Domain = analyzeFileDomain(std::move(In), Ctx);
  return Out;
}

std::map<const Expr *, std::string> renumberedReads(const FileDomain &D, const std::vector<KernelDecision> &Decisions) {
  std::map<const Expr *, std::string> Out;
  if (!D.formed() || D.GraphKernels.empty())
    return Out;
  const std::string Graph = D.GraphKernels.front()->Kernel->getNameAsString();
  const char *GraphIs = D.GraphKernels.front()->GraphRows >= 0 ? "rows" : "neighbour list";
  std::set<const FunctionDecl *> Lanes; // lane kernels launched over the domain's arrays
  for (const DomainLaunch &L : D.Launches)
    if (!L.Pointers.empty() && L.Kernel->indifferent() && L.Kernel->Lanes > 1 && !L.Kernel->ThroughOrder)
      Lanes.insert(L.Kernel->Kernel->getCanonicalDecl());
  for (const KernelDecision &Dec : Decisions) {
    const KernelInfo &Info = Dec.Info;
    if (!Dec.LeftAsIs.empty() || !Lanes.count(Info.Kernel->getCanonicalDecl()))
      continue;
    auto It = D.Kernels.find(Info.Kernel->getCanonicalDecl());
    if (It == D.Kernels.end())
      continue;
    const KernelNumbering &K = It->second;
    for (const ReadVerdict &V : Info.Reads) {
      const auto *AS = dyn_cast<ArraySubscriptExpr>(strip(V.Read));
      const auto *DR = AS && V.In.empty() ? dyn_cast<DeclRefExpr>(strip(AS->getBase())) : nullptr;
      const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
      for (const NumberingParam &NP : K.Pointers)
        if (P && NP.Param == P && (NP.Role & (kRoleElements | kRoleNumbers | kRoleRows | kRoleSegments)))
          Out[V.Read] = "read as written, in the locality order of '" + Graph + "''s " + GraphIs +
                        " while the runtime keeps '" + P->getNameAsString() + "' there (program-wide renumbering)";
    }
  }
  return Out;
}

// Puts the invalidations in, counts them, and says where every copy is
// dropped and which writes could not be instrumented (Advice: what the user
// can write instead). False when an edit does not fit.
static bool applyInvalidations(const InvalidationEdits &Inv, const char *Advice, FileEdits &Edits, Messages &Msg,
                               FileResult &Result) {
  for (const tooling::Replacement &R : Inv.Edits)
    if (!Edits.add(R))
      return false;
  Result.Invalidations = Inv.Points - Inv.Skipped.size();
  Result.EntryGuards = Inv.Guards;
  for (auto &[E, Why] : Inv.Drops)
    Msg.remark(E->getBeginLoc(), "cached copies are dropped here: " + Why);
  for (auto &[E, Why] : Inv.Skipped)
    if (E)
      Msg.warning(E->getBeginLoc(), "cannot insert cache invalidation for this write (" + Why + "); " + Advice);
  return true;
}

// A file none of whose kernels is rewritten keeps its host code: the rewritten
// files' entry guards drop the copies when control comes back from it. A
// device reset is the exception: it destroys the runtime's copies, streams and
// events with the program's memory, and later allocations may reuse their
// addresses, so the runtime must forget them before the reset, wherever it is
// (a destructor in another file that resets at the end of main, say). Only the
// resets are bracketed; a file without one stays as it is.
static bool addResetBrackets(const MainFile &File, HostWriteAnalysis &Host, ASTContext &Ctx, FileEdits &Edits,
                             Messages &Msg, FileResult &Result) {
  std::vector<HostWrite> Resets;
  for (auto [Call, Fn] : File.Calls) {
    HostEffect E = effectOfCall(File, Call, Host);
    if (E.Drop == DropCause::DeviceReset)
      Resets.push_back({Call, std::move(E), ""});
  }
  if (Resets.empty())
    return true;
  return applyInvalidations(invalidations(Resets, {}, {}, Ctx), "call irregfix_forget_device() before it", Edits,
                            Msg, Result);
}

bool addCacheEdits(const MainFile &File, const SettledDomain &Settled, const RewrittenLaunches &Launches,
                   const DeviceOnlyCode &DeviceOnly, bool DomainOnly, ASTContext &Ctx, FileEdits &Edits,
                   Messages &Msg, FileResult &Result) {
  const RewritableFiles &Files = Edits.files();
  HostWriteAnalysis Host(Ctx, [&Files](SourceLocation L) { return Files.contains(L); }, &DeviceOnly);
  const FileDomain &Domain = Settled.Domain;
  const ThroughOrderText &Through = Settled.Through;
  sayDomain(Domain, Msg, Result);
  NumberingText Numbering = numberingText(Domain, Ctx);
  if (DomainOnly && Numbering.Tables.empty())
    return addResetBrackets(File, Host, Ctx, Edits, Msg, Result);
  if (!Numbering.Tables.empty()) {
    const SourceLocation At = tablesAt(File, Ctx);
    if (At.isInvalid() || !Edits.add(tooling::Replacement(Ctx.getSourceManager(), At, 0, Numbering.Tables + "\n")))
      return false;
    Result.DomainArrays = Domain.Arrays.size();
    if (!throughOrderEdits(Domain, Through, Edits))
      return false;
  }
  std::vector<HostWrite> Writes;
  for (auto [Call, Fn] : File.Calls) {
    HostEffect E = effectOfCall(File, Call, Host);
    auto Hook = Numbering.Before.find(Call);
    std::string Before = Hook == Numbering.Before.end() ? "" : Hook->second;
    if (!E.empty() || !Before.empty())
      Writes.push_back({Call, std::move(E), std::move(Before)});
  }
  const std::vector<const Stmt *> Guarded = guardedBodies(File, Launches, Host, Msg);

  return applyInvalidations(invalidations(Writes, Guarded, Launches.Ranges, Ctx),
                            "call irregfix_invalidate() on the pointer after it", Edits, Msg, Result);
}

} // namespace irregfix
