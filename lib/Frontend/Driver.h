// The tool's run over its input files, as the command line asks
// (tool/irregfix.cpp fills the options): each file parsed and rewritten on its
// own (RewriteAction.h), then what it came to written out — to stdout, to -o,
// in place (every changed file or none), as diffs, reports, statistics, a
// depfile or clang-apply-replacements YAML.
#pragma once

#include "Frontend/RewriteAction.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace irregfix {

enum class ReportFormat { None, Text, Json };

struct DriverOptions {
  std::vector<std::string> Files;
  std::string OutputFile; // -o
  bool InPlace = false;   // -i
  bool Diff = false;      // --diff
  ReportFormat Report = ReportFormat::None;
  std::string ExportFixes; // --export-fixes
  std::string DepFile, DepFileTarget;
  bool PrintStats = false;
  RewriteOptions Rewrite;
  // Clang's flags beyond the compilation database's: CUDA, --extra-arg, headers, colours.
  std::vector<clang::tooling::ArgumentsAdjuster> Adjusters;

  // The rewrite goes to stdout: nothing else is asked for.
  bool toStdout() const {
    return !InPlace && OutputFile.empty() && !Diff && Report == ReportFormat::None && ExportFixes.empty();
  }
};

// The exit status: 0, or 1 on any error (a file with an error is not written).
int runDriver(const DriverOptions &Options, const clang::tooling::CompilationDatabase &Compilations);

} // namespace irregfix
