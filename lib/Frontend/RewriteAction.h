// The LibTooling driver: parses one .cu file, analyses the kernels of the files
// it rewrites (that file and the user files it includes), and collects the
// edits of every strategy as tooling::Replacements, per file.
#pragma once

#include "Decide/KernelDecision.h"
#include "Frontend/IncludeTree.h"
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
  // --hoist: run the loop of every hoistable kernel from the host, or of the kernels named.
  HoistSelection Hoist;
  // Directories whose files are never rewritten, though not system headers
  // (the CUDA toolkit, Clang's resource directory, irregfix's stub headers).
  std::vector<std::string> NotRewritten;
};

// What one file came to.
struct FileResult {
  std::string Path;         // as given to the tool
  IncludeTree Files;        // the files it rewrites, their texts and edits, and how they include each other
  std::vector<SiteReport> Sites;
  std::vector<ReadReport> Reads; // every indirect read of every kernel, in source order
  unsigned KernelsRewritten = 0, LaunchesRewritten = 0;
  unsigned Invalidations = 0; // host calls given an invalidation or a bracket
  unsigned EntryGuards = 0;   // functions that drop the copies when entered from outside
  unsigned LoopsHoisted = 0;
  std::vector<std::string> Kernels;      // every kernel defined in the files it rewrites, by name
  std::vector<std::string> Dependencies; // every file the preprocessor entered, absolute
  bool Parsed = false;      // the file was parsed without errors
  bool RewriteFailed = false; // an internal edit failed: the files are left alone
};

// A factory for the action; results land in *Results, one per parsed file.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newRewriteActionFactory(const RewriteOptions &Options, std::vector<FileResult> *Results);

} // namespace irregfix
