#include "Transform/Lanes/LaunchRewriter.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/InKernel/Naming.h"
#include "Transform/Lanes/Naming.h"
#include "Transform/SourceText.h"
#include "Transform/ThreadCount.h"

using namespace clang;

namespace irregfix::lanes {

Launcher launcher(const KernelInfo &Info, ASTContext &Ctx) {
  const FunctionDecl *K = Info.Kernel;
  const CooperativeRows &Rows = Info.Lanes;
  const Site &S = Info.Sites[Rows.SiteIndex];
  Launcher L = inkernel::launcher(Info, Ctx, /*Whole=*/false);
  for (SiteRecord &R : L.Sites) {
    R.Flags.push_back("irregfix::kSiteLanes");
    if (Rows.Reassociates)
      R.Flags.push_back("irregfix::kSiteReassociates");
    if (Rows.InOrder)
      R.Flags.push_back("irregfix::kSiteLanesInOrder");
  }
  L.Comment = "// irregfix: launches " + lanesKernelName(K) + " (several lanes a row) or " +
              inkernel::transformedKernelName(K) +
              " on remapped copies, as the runtime chooses, or the original kernel when it declines or times it "
              "faster.";
  const std::string View = inkernel::viewName(Rows.SiteIndex), Launch = launchName();
  KernelLaunch Variant;
  Variant.Kernel = inkernel::kernelQualifier(K) + lanesKernelName(K);
  Variant.Grid = Launch + ".grid";
  Variant.Block = Launch + ".block";
  Variant.Args = {inkernel::argumentList(K), Launch + ".lanes"};
  std::vector<LauncherStatement> Lanes{{"const irregfix::LanesLaunch " + Launch + " = irregfix::lanes_launch(" +
                                        View + ", __irregfix_grid, __irregfix_block);"}};
  // IRREGFIX_VERIFY: copies of what the kernel stores at its thread index,
  // taken before the variant writes it, for the original to write instead.
  const std::vector<ArrayRef> &Stored = Rows.StoredAtThread;
  const std::string Rows0 = "irregfix::lanes_rows(" + Launch + ", " + activeThreadsText(S, Ctx) + ")";
  KernelLaunch Reference = L.Original;
  Reference.Args.clear();
  std::string Ready;
  for (unsigned I = 0; I < Stored.size(); ++I) {
    const std::string A = Stored[I].spelling(), Copy = referenceName(I);
    L.Locals.push_back("void *" + Copy + " = nullptr;");
    Lanes.push_back({"irregfix::lanes_reference(" + L.Site + ", " + std::to_string(I) + ", " + A + ", sizeof(*" + A +
                     "), irregfix::value_kind(" + A + "), " + Rows0 + ", &" + Copy + ", __irregfix_stream);"});
    Ready += (I ? " && " : "") + Copy;
  }
  Lanes.push_back({Variant.text()});
  for (unsigned P = 0; P < K->getNumParams(); ++P) {
    const ParmVarDecl *Param = K->getParamDecl(P);
    auto It = llvm::find_if(Stored, [&](const ArrayRef &A) { return A.param() == Param; });
    Reference.Args.push_back(It == Stored.end() ? inkernel::paramName(Param, P)
                                                : "static_cast<" +
                                                      Param->getType().getAsString(Ctx.getPrintingPolicy()) + ">(" +
                                                      referenceName(It - Stored.begin()) + ")");
  }
  if (!Stored.empty())
    L.AfterEnd.push_back({"if (" + Ready + ")",
                          {{Reference.text()}, {"irregfix::lanes_compare(" + L.Site + ", __irregfix_stream);"}},
                          {}});
  L.Branch = {{"if (irregfix::runs_lanes(" + View + "))", Lanes, L.Branch}};
  return L;
}

} // namespace irregfix::lanes
