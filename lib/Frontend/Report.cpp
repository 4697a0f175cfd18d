#include "Frontend/Report.h"

namespace irregfix {

static std::string join(const std::vector<std::string> &V, const char *Sep) {
  std::string Out;
  for (size_t I = 0; I < V.size(); ++I)
    Out += (I ? Sep : "") + V[I];
  return Out;
}

std::string formatReport(const std::vector<SiteReport> &Sites) {
  std::string Out;
  for (const SiteReport &S : Sites) {
    Out += S.File + ":" + std::to_string(S.Line) + ":" + std::to_string(S.Column) + ": kernel=" +
           S.Kernel + " pattern=" + S.Pattern + " offsets=" + S.Offsets +
           " arrays=" + (S.Arrays.empty() ? "-" : join(S.Arrays, ",")) +
           " verdict=" + (S.Transformed ? "transformed" : "refused");
    if (!S.Threads.empty())
      Out += " threads=" + S.Threads;
    if (!S.Launch.empty())
      Out += " launch=" + S.Launch;
    if (!S.AliasChecks.empty())
      Out += " alias-checks=" + join(S.AliasChecks, ",");
    if (!S.Reason.empty())
      Out += " reason=\"" + S.Reason + "\"";
    Out += "\n";
  }
  return Out;
}

} // namespace irregfix
