#include "Frontend/Stats.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace irregfix {

void Stats::add(const FileResult &R, double Time) {
  ++Files;
  for (const SiteReport &S : R.Sites) {
    ++Sites;
    if (S.Transformed) {
      ++Rewritten;
    } else {
      ++Refused;
      ++RefusedBy[S.Reason.empty() ? "no reason given" : S.Reason];
    }
  }
  Kernels += R.KernelsRewritten;
  Launches += R.LaunchesRewritten;
  Invalidations += R.Invalidations;
  EntryGuards += R.EntryGuards;
  Seconds += Time;
}

void Stats::add(const Stats &O) {
  Files += O.Files;
  Sites += O.Sites;
  Rewritten += O.Rewritten;
  Refused += O.Refused;
  for (auto &[Why, N] : O.RefusedBy)
    RefusedBy[Why] += N;
  Kernels += O.Kernels;
  Launches += O.Launches;
  Invalidations += O.Invalidations;
  EntryGuards += O.EntryGuards;
  Seconds += O.Seconds;
}

static std::string plural(unsigned N, const char *One, const char *Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many);
}

std::string formatStats(const std::string &Name, const Stats &S) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "irregfix: stats: " << Name << ": " << plural(S.Sites, "site", "sites") << " (" << S.Rewritten
     << " rewritten, " << S.Refused << " refused), " << plural(S.Kernels, "kernel", "kernels") << " and "
     << plural(S.Launches, "launch", "launches") << " rewritten, "
     << plural(S.Invalidations, "invalidation", "invalidations") << " and "
     << plural(S.EntryGuards, "entry guard", "entry guards") << " inserted, "
     << llvm::format("%.1f", S.Seconds * 1000) << " ms\n";
  for (auto &[Why, N] : S.RefusedBy)
    OS << "irregfix: stats:   refused " << N << "x: " << Why << "\n";
  return Text;
}

} // namespace irregfix
