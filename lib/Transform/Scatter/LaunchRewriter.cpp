#include "Transform/Scatter/LaunchRewriter.h"
#include "Transform/ThreadCount.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Scatter/KernelRewriter.h"
#include "Transform/Scatter/Naming.h"
#include "Transform/LaunchSpelling.h"
#include "Transform/SourceText.h"

using namespace clang;

namespace irregfix::scatter {

Launcher launcher(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates, ASTContext &Ctx) {
  const ScatterSite &S = *Updates.front();
  const FunctionDecl *K = Info.Kernel;
  const std::string A = S.Target.spelling();
  std::string Indices, Names; // the index arrays, in the order of the updates
  for (const ScatterSite *U : Updates) {
    Indices += (Indices.empty() ? "" : ", ") + launchSpelling(U->Index, Ctx);
    Names += "," + U->Index.spelling();
  }
  Launcher L;
  L.Site = inkernel::siteInfoName(K, 0);
  // The sources as the runtime orders them (A by its allocation, then the index
  // arrays), for its messages.
  L.Sites.push_back({L.Site, inkernel::siteId(S.Loc, Ctx), K->getNameAsString(), kPatternScatter, {}});
  L.Sites.back().Sources = A + Names;
  L.Comment = "// irregfix: launches " + inkernel::transformedKernelName(K) +
              ", which writes each thread's contribution to a buffer, and the runtime's executor, which " +
              (S.Assign ? "keeps the highest thread's value of each element of '" : "adds them to '") + A +
              (S.Assign ? "'" : "' in thread order") +
              "; or the original kernel when the runtime declines or times it faster.";
  L.Signature = inkernel::launcherSignature(Info, Ctx);
  L.Locals.push_back("irregfix::ScatterPlan " + planName() + ";");
  L.Conditions.push_back("irregfix::begin_launch(" + L.Site +
                         ", __irregfix_stream, __irregfix_grid, __irregfix_block)");
  for (const ArrayRef &Other : S.AliasChecks)
    L.Conditions.push_back("irregfix::disjoint(" + L.Site + ", " + A + ", " + launchSpelling(Other, Ctx) + ")");
  const std::string Which = Updates.size() == 1 && !S.Assign ? Indices + ", irregfix::index_kind(" + Indices + ")"
                                                             : "irregfix::scatter_indices(" + Indices + ")";
  const std::string N = guardBoundText(S.ActiveThreads, Ctx);
  L.Conditions.push_back(std::string("irregfix::") + (S.Assign ? "prepare_scatter_assign(" : "prepare_scatter(") +
                         L.Site + ", " + Which + ", (long long)(" + N + "), " + A + ", irregfix::scatter_kind(" + A +
                         "), &" + planName() + ", __irregfix_stream)");
  const std::string Qualifier = inkernel::kernelQualifier(K);
  const std::string TemplateArgs = inkernel::templateArguments(Info);
  L.Transformed.Kernel = Qualifier + inkernel::transformedKernelName(K) + TemplateArgs;
  L.Transformed.Args = {inkernel::argumentList(K),
                        "static_cast<" + contributionType(Info, S, Ctx) + " *>(" + planName() + ".contrib)",
                        planName() + ".slots", S.Assign ? planName() + ".written" : ""};
  L.Branch.push_back({L.Transformed.text()});
  L.Completion = "irregfix::execute_scatter(" + L.Site + ", " + planName() + ", __irregfix_stream)";
  L.Original.Kernel = Qualifier + K->getNameAsString() + TemplateArgs;
  L.Original.Args.push_back(inkernel::argumentList(K));
  return L;
}

} // namespace irregfix::scatter
