// The LibTooling driver: parses one .cu file, analyses its kernels, and
// collects the edits of every strategy as tooling::Replacements on that file.
#pragma once

#include "Frontend/Report.h"

#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace irregfix {

struct RewriteOptions {
  bool Remarks = true;
  // --hoist: run the loop of every hoistable kernel from the host (HoistAll), or
  // of the kernels named.
  bool HoistAll = false;
  std::vector<std::string> HoistKernels;
  bool hoists(const std::string &Kernel) const {
    return HoistAll || std::find(HoistKernels.begin(), HoistKernels.end(), Kernel) != HoistKernels.end();
  }
};

// What one file came to.
struct FileResult {
  std::string Path;         // as given to the tool
  std::string Original;     // its text when parsed
  clang::tooling::Replacements Edits;
  std::vector<SiteReport> Sites;
  unsigned KernelsRewritten = 0, LaunchesRewritten = 0;
  unsigned Invalidations = 0; // host calls given an invalidation or a bracket
  unsigned EntryGuards = 0;   // functions that drop the copies when entered from outside
  unsigned LoopsHoisted = 0;
  std::vector<std::string> Kernels;      // every kernel defined in the file, by name
  std::vector<std::string> Dependencies; // every file the preprocessor entered, absolute
  bool Parsed = false;      // the file was parsed without errors
  bool RewriteFailed = false; // an internal edit failed: the file is left alone
};

// A factory for the action; results land in *Results, one per parsed file.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newRewriteActionFactory(const RewriteOptions &Options, std::vector<FileResult> *Results);

} // namespace irregfix
