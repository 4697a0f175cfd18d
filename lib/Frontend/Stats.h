// --print-stats: what irregfix did, per file and in total (as hipify-clang's
// --print-stats does).
#pragma once

#include "Frontend/FileResult.h"

#include <map>
#include <string>

namespace irregfix {

struct Stats {
  unsigned Files = 0;
  unsigned Sites = 0, Rewritten = 0, Refused = 0;
  std::map<std::string, unsigned> RefusedBy; // reason -> sites
  unsigned Kernels = 0, Launches = 0, Invalidations = 0, EntryGuards = 0;
  double Seconds = 0;

  void add(const FileResult &R, double Seconds);
  void add(const Stats &Other);
};

// `irregfix: stats: <Name>: N sites (R rewritten, F refused), K kernels, L launches
// rewritten, I invalidations, T ms` and one indented line per refusal reason.
std::string formatStats(const std::string &Name, const Stats &S);

} // namespace irregfix
