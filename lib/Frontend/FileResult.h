// What one file's run of the tool came to, as plain data: the files it
// rewrites with their edits, the report's rows, and the counts --print-stats
// shows. The driver writes it out.
#pragma once

#include "Frontend/IncludeTree.h"
#include "Frontend/Report.h"

#include <string>
#include <vector>

namespace irregfix {

// What one file came to.
struct FileResult {
  std::string Path;         // as given to the tool
  IncludeTree Files;        // the files it rewrites, their texts and edits, and how they include each other
  std::vector<SiteReport> Sites;
  std::vector<ReadReport> Reads; // every indirect read of every kernel, in source order
  unsigned KernelsRewritten = 0, LaunchesRewritten = 0;
  unsigned Invalidations = 0; // host calls given an invalidation or a bracket
  unsigned EntryGuards = 0;   // functions that drop the copies when entered from outside
  unsigned DomainArrays = 0;  // arrays the runtime may keep renumbered across launches (program-wide renumbering)
  unsigned LoopsHoisted = 0;
  std::vector<std::string> Kernels;      // every kernel defined in the files it rewrites, by name
  std::vector<std::string> Dependencies; // every file the preprocessor entered, absolute
  bool Parsed = false;      // the file was parsed without errors
  bool RewriteFailed = false; // an internal edit failed: the files are left alone
};

} // namespace irregfix
