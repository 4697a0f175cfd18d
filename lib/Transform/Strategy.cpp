#include "Transform/Strategy.h"
#include "Transform/Hoisted/KernelRewriter.h"
#include "Transform/Hoisted/LaunchRewriter.h"
#include "Transform/InKernel/KernelRewriter.h"
#include "Transform/InKernel/LaunchRewriter.h"
#include "Transform/Lanes/KernelRewriter.h"
#include "Transform/Lanes/LaunchRewriter.h"
#include "Transform/Scatter/KernelRewriter.h"
#include "Transform/Scatter/LaunchRewriter.h"

using namespace clang;

namespace irregfix {

namespace {

llvm::Error failure(const std::string &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

llvm::Expected<RewrittenKernel> scatterKernel(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates,
                                              ASTContext &Ctx) {
  const ScatterSite &S = *Updates.front();
  const std::string Name = Info.Kernel->getNameAsString();
  llvm::Expected<std::string> Variant = scatter::rewriteKernel(Info, Updates, Ctx);
  if (!Variant)
    return failure("cannot rewrite kernel '" + Name + "': " + llvm::toString(Variant.takeError()));
  const std::string Executor =
      S.Assign ? "keeps the highest thread's value of each element" : "adds them per element, in thread order";
  return RewrittenKernel{"\n\n// irregfix: '" + Name + "' writing each thread's contribution to a buffer instead of "
                         "updating " + S.Target.quoted() + "; the runtime " + Executor +
                             ". The original above is the fallback.\n" + *Variant + "\n\n" +
                             printLauncher(scatter::launcher(Info, Updates, Ctx)) + "\n",
                         false};
}

} // namespace

llvm::Expected<RewrittenKernel> rewriteKernel(const KernelInfo &Info, const std::vector<const ScatterSite *> &Updates,
                                              ASTContext &Ctx) {
  if (!Updates.empty())
    return scatterKernel(Info, Updates, Ctx);
  const std::string Name = Info.Kernel->getNameAsString();
  if (!Info.hasTransformableSite() && !Info.OrderOnly)
    return failure("internal error: nothing to rewrite in kernel '" + Name + "'");
  llvm::Expected<std::string> Kernel = inkernel::rewriteKernel(Info, Ctx);
  if (!Kernel)
    return failure("cannot rewrite kernel '" + Name + "': " + llvm::toString(Kernel.takeError()));
  RewrittenKernel Out;
  Out.Text = "\n\n// irregfix: '" + Name +
             (Info.OrderOnly ? "' running its threads in a locality order; the original "
                             : "' reading its indirect arrays through coalesced copies; the original ") +
             "above is the fallback.\n" + inkernel::pieceTypeDefinitions(Info, Ctx) + *Kernel + "\n\n";
  if (Info.Lanes.Qualifies) {
    llvm::Expected<std::string> Lanes = lanes::rewriteKernel(Info, Ctx);
    if (!Lanes)
      return failure("cannot write the lanes variant of kernel '" + Name + "': " + llvm::toString(Lanes.takeError()));
    Out.Text += "// irregfix: '" + Name + "' with several lanes a row, " +
                (Info.Lanes.InOrder ? std::string("each running the loop over the row's elements in the original's order")
                                    : std::string("combined by shuffles")) +
                (Info.Lanes.Reassociates ? " (--reassociate: its floating-point sums in another order)" : "") +
                "; the kernels above are its fallbacks.\n" + *Lanes + "\n\n" +
                printLauncher(lanes::launcher(Info, Ctx)) + "\n";
    return Out;
  }
  if (!Info.Hoist.Hoistable) {
    Out.Text += printLauncher(inkernel::launcher(Info, Ctx, /*Whole=*/false)) + "\n";
    return Out;
  }
  llvm::Expected<std::string> Hoisted = hoisted::rewriteKernel(Info, Ctx);
  if (!Hoisted)
    return failure("cannot hoist the loop of kernel '" + Name + "': " + llvm::toString(Hoisted.takeError()));
  Out.Text += "// irregfix: '" + Name +
              "' with its loop run from the host, a slice of iterations a launch (--hoist); the kernel above is "
              "its fallback.\n" +
              *Hoisted + "\n\n" + printLauncher(hoisted::launcher(Info, Ctx)) + "\n";
  Out.Hoisted = true;
  return Out;
}

} // namespace irregfix
