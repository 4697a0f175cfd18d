#include "Transform/Hoisted/LaunchRewriter.h"
#include "Transform/Hoisted/Naming.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/InKernel/Naming.h"

using namespace clang;

namespace irregfix::hoisted {

std::string launcherDefinition(const KernelInfo &Info, ASTContext &Ctx) {
  const FunctionDecl *K = Info.Kernel;
  const std::vector<const VarDecl *> &Live = Info.Hoist.Live;
  std::string Site = inkernel::siteInfoName(K, Info.Hoist.SiteIndex);
  std::string View = inkernel::viewName(Info.Hoist.SiteIndex);
  std::string Count = std::to_string(Live.size());
  inkernel::OtherStrategy Hoisted;
  Hoisted.SiteFlag = "irregfix::kSiteHoisted";
  // Arrays of zero elements are not C++: a loop with nothing to carry passes nulls.
  std::string Sizes = "nullptr", Buffers = "nullptr";
  if (!Live.empty()) {
    Sizes = "__irregfix_live_size";
    Buffers = "__irregfix_live";
    Hoisted.Declarations += "  const size_t __irregfix_live_size[" + Count + "] = {";
    for (size_t I = 0; I < Live.size(); ++I)
      Hoisted.Declarations += (I ? ", " : "") + std::string("sizeof(") + liveType(Live[I], Ctx) + ")";
    Hoisted.Declarations += "};\n  void *__irregfix_live[" + Count + "];\n";
  }
  Hoisted.Declarations += "  irregfix::HoistPlan __irregfix_plan;\n";
  // Last in the chain: it enqueues the copies (in slices when the launch
  // hoists), and a copy that cannot be enqueued sends the launch to the original.
  Hoisted.Condition = "irregfix::begin_hoisted(" + Site + ", " + View + ", " + Count + ", " + Sizes + ", " +
                      Buffers + ", &__irregfix_plan, __irregfix_stream)";
  std::string Carried;
  for (size_t I = 0; I < Live.size(); ++I)
    Carried += ", static_cast<" + liveType(Live[I], Ctx) + " *>(__irregfix_live[" + std::to_string(I) + "])";
  Hoisted.Branch = [&](const std::string &Config, const std::string &Args, const std::string &InKernelLaunch) {
    std::string Kernel = inkernel::kernelQualifier(K) + hoistedKernelName(K) + Config + "(" + Args + ", ";
    std::string Out;
    Out += "    if (__irregfix_plan.hoisted) {\n";
    Out += "      for (int __irregfix_s = 0; __irregfix_s < __irregfix_plan.steps; ++__irregfix_s) {\n";
    Out += "        irregfix::hoisted_step(" + Site + ", __irregfix_s, __irregfix_stream);\n";
    Out += "        " + Kernel + "irregfix::hoist_step(__irregfix_plan, __irregfix_s)" + Carried + ");\n";
    Out += "      }\n";
    Out += "      " + Kernel + "irregfix::hoist_epilogue(__irregfix_plan)" + Carried + ");\n";
    Out += "    } else {\n";
    Out += "      " + InKernelLaunch + "\n";
    Out += "    }\n";
    return Out;
  };
  return inkernel::launcherDefinition(Info, Ctx, &Hoisted);
}

} // namespace irregfix::hoisted
