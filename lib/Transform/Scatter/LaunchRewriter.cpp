#include "Transform/Scatter/LaunchRewriter.h"
#include "Transform/Scatter/KernelRewriter.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Scatter/Naming.h"
#include "Transform/SourceText.h"

#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace irregfix::scatter {

std::string launcherDefinition(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates,
                               ASTContext &Ctx) {
  const ScatterSite &S = *Updates.front();
  const FunctionDecl *K = Info.Kernel;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const std::string Site = inkernel::siteInfoName(K, 0);
  const std::string A = S.Target.spelling();
  std::string Indices, Names; // the index arrays, in the order of the updates
  for (const ScatterSite *U : Updates) {
    Indices += (Indices.empty() ? "" : ", ") + U->Index.spelling();
    Names += "," + U->Index.spelling();
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  // The sources as the runtime orders them (A by its allocation, then the index arrays), for its
  // messages.
  OS << "static const irregfix::SiteInfo " << Site << " = {\"" << inkernel::siteId(S.Loc, Ctx) << "\", \""
     << K->getName() << "\", \"" << pattern_name(kPatternScatter) << "\", 0, nullptr, \"" << A << Names
     << "\"};\n";
  OS << "// irregfix: launches " << inkernel::transformedKernelName(K)
     << ", which writes each thread's contribution to a buffer, and the runtime's executor, which "
     << (S.Assign ? "keeps the highest thread's value of each element of '" : "adds them to '") << A
     << (S.Assign ? "'" : "' in thread order") << "; or the original kernel when the runtime declines or times it "
     << "faster.\n";
  OS << inkernel::launcherSignature(Info, Ctx) << " {\n";
  OS << "  irregfix::ScatterPlan " << planName() << ";\n";
  OS << "  if (irregfix::begin_launch(" << Site << ", __irregfix_stream, __irregfix_grid, __irregfix_block)";
  for (const ArrayRef &Other : S.AliasChecks)
    OS << " &&\n      irregfix::disjoint(" << Site << ", " << A << ", " << Other.spelling() << ")";
  const std::string N = sourceText(S.ActiveThreads->getSourceRange(), SM, LO);
  OS << " &&\n      irregfix::" << (S.Assign ? "prepare_scatter_assign(" : "prepare_scatter(") << Site << ", ";
  if (Updates.size() == 1 && !S.Assign)
    OS << Indices << ", irregfix::index_kind(" << Indices << ")";
  else
    OS << "irregfix::scatter_indices(" << Indices << ")";
  OS << ", (long long)(" << N << "), " << A << ", irregfix::scatter_kind(" << A << "), &" << planName()
     << ", __irregfix_stream)) {\n";
  const std::string Qualifier = inkernel::kernelQualifier(K);
  const std::string Args = inkernel::argumentList(K);
  const std::string Config = "<<<__irregfix_grid, __irregfix_block, __irregfix_shmem, __irregfix_stream>>>";
  const std::string Element = contributionType(Info, S, Ctx);
  const std::string TemplateArgs = inkernel::templateArguments(Info);
  OS << "    " << Qualifier << inkernel::transformedKernelName(K) << TemplateArgs << Config << "(" << Args << (Args.empty() ? "" : ", ")
     << "static_cast<" << Element << " *>(" << planName() << ".contrib), " << planName() << ".slots"
     << (S.Assign ? ", " + planName() + ".written" : std::string()) << ");\n";
  OS << "    if (irregfix::execute_scatter(" << Site << ", " << planName() << ", __irregfix_stream)) {\n";
  OS << "      irregfix::end_transformed_launch(" << Site << ", __irregfix_stream);\n";
  OS << "      return;\n    }\n  }\n";
  OS << "  " << Qualifier << K->getName() << TemplateArgs << Config << "(" << Args << ");\n";
  OS << "  irregfix::end_original_launch(" << Site << ", __irregfix_stream);\n";
  OS << "}";
  return Out;
}

} // namespace irregfix::scatter
