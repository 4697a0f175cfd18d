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
  std::string Pattern;             // its name in the pattern table (irregfix/pattern.h)
  std::string Offsets;             // B
  std::vector<std::string> Arrays; // A's
  bool Transformed = false;
  std::string Threads;             // transformed: "permutable" (SELL-32-sigma may regroup them) or "in-order"
  std::string Launch;              // transformed: "chunked" (a remap may overlap it) or "whole"
  std::string Reason;              // why not, when not transformed
  std::vector<std::string> AliasChecks; // "y/val": checked at each launch
  std::string Renumbered;          // "x/col,w/col": arrays read only at col's values (renumbered in the locality order)
  // A transformed range site: "exact" or "reassociated" when its rows may run
  // with several lanes each, "no: <why>" when not; "" for other sites.
  std::string Lanes;
  // A neighbour list program-wide renumbering may order by: the variables whose
  // arrays the runtime may keep renumbered ("d_pos,d_list"), or "no: <why>".
  std::string Domain;
};

// One indirect read of a kernel (its index depends on a loaded value) and
// what became of it; the report lists every one, rewritten or not.
struct ReadReport {
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Kernel;
  std::string Function;  // the device function the read is in, "" for the kernel itself
  std::string Array;     // as written
  std::string Index;     // the index as written
  std::string Pattern;   // the site's pattern, or what the read looks like when no site took it
  std::string Verdict;   // "rewritten", "index-remapped", "renumbered" or "not-rewritten"
  std::string Reason;    // why not (and for index-remapped and renumbered, what happens instead)
};

// One line per site: `file:line:col: kernel=.. pattern=.. offsets=.. arrays=.. verdict=.. reason=..`,
// then one per indirect read: `file:line:col: read kernel=.. array=.. index=.. pattern=.. verdict=.. reason=..`.
std::string formatReport(const std::vector<SiteReport> &Sites, const std::vector<ReadReport> &Reads);

// The reads as a JSON array, one object each (file, line, column, kernel,
// function, array, index, pattern, verdict, reason), for scripts and CI.
std::string formatReadsJson(const std::vector<ReadReport> &Reads);

} // namespace irregfix
