// irregfix: rewrites CUDA kernels whose loads go through index arrays so they
// read reordered, coalesced copies built by the irregfix runtime.
//
// This file only reads the command line (CommandLine.h) and runs the driver
// (Frontend/Driver.h) over the inputs; the work is in lib/.
#include "CommandLine.h"

#include "clang/Basic/Version.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, const char **argv) {
  // A crash prints a stack dump and what to report, not just a signal.
  llvm::InitLLVM Init(argc, argv);
  llvm::setBugReportMsg("PLEASE submit a bug report to the irregfix maintainers with the input file, "
                        "the command line and the stack dump below:\n");
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "irregfix " IRREGFIX_VERSION " (built with " << clang::getClangFullVersion() << ")\n";
  });
  irregfix::DriverOptions Options;
  std::unique_ptr<clang::tooling::CompilationDatabase> Compilations;
  if (!irregfix::parseCommandLine(argc, argv, Options, Compilations))
    return 1;
  return irregfix::runDriver(Options, *Compilations);
}
