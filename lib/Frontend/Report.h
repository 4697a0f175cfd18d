// What the tool found in one file, as plain data: one row per site (and per
// refused array), for --report, --print-stats and remarks.
#pragma once

#include <string>
#include <vector>

namespace irregfix {

struct SiteReport {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Kernel;
  std::string Pattern;             // its name: "range", "range2", "gather", "gather2", "neighbors"
  std::string Offsets;             // B
  std::vector<std::string> Arrays; // A's
  bool Transformed = false;
  std::string Threads;             // transformed: "permutable" (SELL-32-sigma may regroup them) or "in-order"
  std::string Launch;              // transformed: "chunked" (a remap may overlap it) or "whole"
  std::string Reason;              // why not, when not transformed
  std::vector<std::string> AliasChecks; // "y/val": checked at each launch
};

// One line per site: `file:line:col: kernel=.. pattern=.. offsets=.. arrays=.. verdict=.. reason=..`.
std::string formatReport(const std::vector<SiteReport> &Sites);

} // namespace irregfix
