#include "Transform/Hoisted/LaunchRewriter.h"
#include "Transform/Hoisted/Naming.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/InKernel/Naming.h"

using namespace clang;

namespace irregfix::hoisted {

Launcher launcher(const KernelInfo &Info, ASTContext &Ctx) {
  const FunctionDecl *K = Info.Kernel;
  const std::vector<const VarDecl *> &Live = Info.Hoist.Live;
  const std::string Site = inkernel::siteInfoName(K, Info.Hoist.SiteIndex);
  const std::string View = inkernel::viewName(Info.Hoist.SiteIndex);
  const std::string Count = std::to_string(Live.size());
  // The in-kernel launcher, its kernel launched whole: the fallback when the
  // runtime has no buffers for the live variables.
  Launcher L = inkernel::launcher(Info, Ctx, /*Whole=*/true);
  for (SiteRecord &R : L.Sites)
    R.Flags.push_back("irregfix::kSiteHoisted");
  // Arrays of zero elements are not C++: a loop with nothing to carry passes nulls.
  std::string Sizes = "nullptr", Buffers = "nullptr";
  if (!Live.empty()) {
    Sizes = "__irregfix_live_size";
    Buffers = "__irregfix_live";
    std::string Each;
    for (size_t I = 0; I < Live.size(); ++I)
      Each += (I ? ", " : "") + std::string("sizeof(") + liveType(Live[I], Ctx) + ")";
    L.Locals.push_back("const size_t __irregfix_live_size[" + Count + "] = {" + Each + "};");
    L.Locals.push_back("void *__irregfix_live[" + Count + "];");
  }
  L.Locals.push_back("irregfix::HoistPlan __irregfix_plan;");
  // Last in the chain: it enqueues the copies (in slices when the launch
  // hoists), and a copy that cannot be enqueued sends the launch to the original.
  L.Conditions.push_back("irregfix::begin_hoisted(" + Site + ", " + View + ", " + Count + ", " + Sizes + ", " +
                         Buffers + ", &__irregfix_plan, __irregfix_stream)");
  // The hoisted kernel takes the in-kernel one's arguments (no block offset),
  // then the slice it runs and the live variables' buffers.
  auto Hoisted = [&](const std::string &Slice) {
    KernelLaunch H = L.Transformed;
    H.Kernel = inkernel::kernelQualifier(K) + hoistedKernelName(K);
    H.BlockOffset.clear();
    H.Args.push_back(Slice);
    for (size_t I = 0; I < Live.size(); ++I)
      H.Args.push_back("static_cast<" + liveType(Live[I], Ctx) + " *>(__irregfix_live[" + std::to_string(I) + "])");
    return H.text();
  };
  L.Branch = {{"if (__irregfix_plan.hoisted)",
               {{"for (int __irregfix_s = 0; __irregfix_s < __irregfix_plan.steps; ++__irregfix_s)",
                 {{"irregfix::hoisted_step(" + Site + ", __irregfix_s, __irregfix_stream);"},
                  {Hoisted("irregfix::hoist_step(__irregfix_plan, __irregfix_s)")}},
                 {}},
                {Hoisted("irregfix::hoist_epilogue(__irregfix_plan)")}},
               {{L.Transformed.text()}}}};
  return L;
}

} // namespace irregfix::hoisted
