// A kernel's sites and reads: its pattern sites (SiteFinder.cpp), then every
// indirect read no pattern takes (IndexedSites.cpp); a kernel template through
// its instantiations; then the field pieces of its copies. What the kernel as
// a whole allows (permuted threads, chunks, sharing) the decision step asks
// separately (Decide/DecideFile.cpp).
#include "Analysis/KernelAnalysis.h"
#include "Analysis/FieldUse.h"
#include "Analysis/IndexedSites.h"
#include "Analysis/SiteFinder.h"
#include "Analysis/ThreadIndex.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace irregfix {

namespace {

KernelInfo analyzeOne(const FunctionDecl *Kernel, ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly) {
  KernelInfo Info;
  Info.Kernel = Kernel;
  if (!Kernel->hasBody())
    return Info;
  if (isa<CXXMethodDecl>(Kernel))
    Info.RefusedBecause = "the kernel is a class member";
  // The tool rewrites the host compilation's text of the kernel: code the
  // device compilation reads instead would be left as it was, or break.
  if (DeviceOnly && Info.RefusedBecause.empty())
    if (const std::vector<const DeviceOnlyCode::Region *> R = DeviceOnly->within(Kernel); !R.empty())
      Info.RefusedBecause =
          "its body has code only the device compilation sees (__CUDA_ARCH__ at line " +
          std::to_string(Ctx.getSourceManager().getExpansionLineNumber(R.front()->Range.getBegin())) + ")";
  WriteSet W = WriteSet::of(Kernel, DeviceOnly);
  Info.RequiredBlockX = kernelBlockSize(Kernel, W.locals());
  if (Info.RequiredBlockX == ~0u)
    Info.RefusedBecause = "its thread index is written with two different block sizes";
  findPatternSites(Info, Ctx, W);
  const std::vector<BoundChain> Chains = boundCallChains(Kernel, W, Ctx, DeviceOnly);
  findCalleeSites(Info, Ctx, W, Chains);
  // Every indirect read: those no pattern site takes go to indexed sites where
  // their indices can be computed outside the kernel, and all get a verdict
  // (a called function's through its chain of calls).
  addIndexedSites(Info, findIndirectReads(Kernel, W, Ctx, DeviceOnly), W, Chains, Ctx);
  Info.Writes = std::move(W);
  return Info;
}

// What must agree between two instantiations for one rewrite of the template to
// serve both: where each site is, its pattern, what is remapped and why not.
std::string siteSignature(const KernelInfo &Info) {
  std::string Sig = Info.RefusedBecause;
  for (const Site &S : Info.Sites) {
    Sig += "|" + std::to_string(S.Loc.getRawEncoding()) + pattern_name(S.Pattern) + S.RefusedBecause;
    for (const SiteArray &A : S.Arrays)
      Sig += "," + std::to_string(A.Array.param()->getFunctionScopeIndex()) + A.Array.spelling() + A.RefusedBecause;
  }
  return Sig;
}

// A field path through a class template's specialization (`Grid<T>::x`).
bool fieldOfTemplate(const ArrayRef &A) {
  return llvm::any_of(A.fields(), [](const FieldDecl *F) {
    for (const DeclContext *DC = F->getParent(); DC; DC = DC->getParent())
      if (isa<ClassTemplateSpecializationDecl>(DC) || DC->isDependentContext())
        return true;
    return false;
  });
}

// A kernel template is analysed through its instantiations in the file: their
// ASTs are complete (no dependent types) and share the template's locations.
KernelInfo analyzeTemplate(const FunctionDecl *Pattern, const FunctionTemplateDecl *FT, ASTContext &Ctx,
                           const DeviceOnlyCode *DeviceOnly) {
  std::vector<KernelInfo> Instances;
  for (const FunctionDecl *Spec : FT->specializations())
    if (Spec->hasBody() && Spec->isTemplateInstantiation())
      Instances.push_back(analyzeOne(Spec, Ctx, DeviceOnly));
  KernelInfo Info;
  // `auto A` (C++20) invents a template parameter that has no name to write in
  // the launcher's `template <...>` nor in its explicit template arguments.
  bool Abbreviated = llvm::any_of(*FT->getTemplateParameters(), [](const NamedDecl *P) { return P->isImplicit(); });
  if (Instances.empty()) {
    // Nothing to analyse: report the sites of the pattern, refused.
    Info = analyzeOne(Pattern, Ctx, DeviceOnly);
    Info.RefusedBecause = "the kernel template is not instantiated in this file";
  } else {
    const std::string First = siteSignature(Instances.front());
    bool Agree = llvm::all_of(Instances, [&](const KernelInfo &I) { return siteSignature(I) == First; });
    Info = std::move(Instances.front());
    if (!Agree)
      Info.RefusedBecause = "the kernel template's instantiations differ in what can be transformed";
    // A field of a class template's specialization may be another field in
    // another instantiation; a plain struct's is the same in all of them.
    for (const Site &S : Info.Sites)
      for (const SiteArray &A : S.Arrays)
        if (A.Array.isField() && Info.RefusedBecause.empty() && fieldOfTemplate(A.Array))
          Info.RefusedBecause = "arrays in fields of class templates in kernel templates are not supported yet";
    // The launcher names an array inside the struct a pointer points to by the
    // struct's type, which a template parameter makes another in each instantiation.
    auto Dependent = [&](const ArrayRef &A) {
      return A.isPointeeMember() && A.in(Pattern).param()->getType()->isDependentType();
    };
    for (const Site &S : Info.Sites) {
      std::vector<ArrayRef> Named = S.indexArrays();
      for (const SiteArray &A : S.Arrays)
        Named.push_back(A.Array);
      if (Info.RefusedBecause.empty() && llvm::any_of(Named, Dependent))
        Info.RefusedBecause = "arrays inside a struct whose type depends on the kernel template's parameters are "
                              "not supported yet";
    }
  }
  // A launch of an explicitly specialised argument list runs the specialisation's
  // own body: a launcher for the template's body would run other code.
  const bool Specialised = llvm::any_of(FT->specializations(), [](const FunctionDecl *Spec) {
    return Spec->getTemplateSpecializationKind() == TSK_ExplicitSpecialization;
  });
  if (Specialised)
    Info.RefusedBecause = "the kernel template has explicit specializations, whose launches run their own bodies";
  else if (Abbreviated)
    Info.RefusedBecause = "kernel templates with 'auto' parameters are not supported";
  // The launcher mirrors the kernel's parameters one by one: a pack has none.
  else if (llvm::any_of(Pattern->parameters(), [](const ParmVarDecl *P) { return P->isParameterPack(); }))
    Info.RefusedBecause = "kernel templates with a function parameter pack are not supported";
  Info.Template = Pattern;
  return Info;
}

} // namespace


KernelInfo analyzeKernel(const FunctionDecl *Kernel, ASTContext &Ctx, const DeviceOnlyCode *DeviceOnly) {
  KernelInfo Info;
  if (const FunctionTemplateDecl *FT = Kernel->getDescribedFunctionTemplate())
    Info = analyzeTemplate(Kernel, FT, Ctx, DeviceOnly);
  else if (Kernel->isTemplated())
    (Info = analyzeOne(Kernel, Ctx, DeviceOnly)).RefusedBecause =
        "kernels inside class templates are not supported yet";
  else if (Kernel->getTemplateSpecializationKind() == TSK_ExplicitSpecialization)
    // Its copy would specialize a template (`k_irregfix<float>`) that may not exist.
    (Info = analyzeOne(Kernel, Ctx, DeviceOnly)).RefusedBecause =
        "explicit specializations of kernel templates are not supported";
  else
    Info = analyzeOne(Kernel, Ctx, DeviceOnly);
  if (!Info.RefusedBecause.empty()) {
    for (Site &S : Info.Sites) {
      S.RefusedBecause = Info.RefusedBecause; // the kernel's reason comes first
    }
    for (ReadVerdict &V : Info.Reads)
      if (V.Verdict != ReadVerdict::NotRewritten) {
        V.Verdict = ReadVerdict::NotRewritten;
        V.Reason = Info.RefusedBecause;
      }
  }
  const std::vector<std::vector<FieldSplit>> Splits = analyzeFieldUse(Info, Ctx);
  for (size_t I = 0; I < Info.Sites.size(); ++I)
    for (size_t J = 0; J < Info.Sites[I].Arrays.size(); ++J)
      Info.Sites[I].Arrays[J].Fields = Splits[I][J];
  // A called function's copy reads whole elements: its pieces' types would be
  // declared for the kernel, which the function's copy precedes.
  for (Site &S : Info.Sites)
    if (S.Callee)
      for (SiteArray &A : S.Arrays)
        if (A.Fields.split()) {
          const unsigned Size = A.Fields.ElementSize;
          A.Fields = FieldSplit{};
          A.Fields.ElementSize = Size;
          A.Fields.WholeBecause = "the site is in a function the kernel calls";
        }
  return Info;
}

} // namespace irregfix
