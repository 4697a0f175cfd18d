// irregfix: rewrites CUDA kernels whose loads go through index arrays so they
// read reordered, coalesced copies built by the irregfix runtime.
//
// This file only parses options, runs the library over the inputs and writes
// the results; the work is in lib/.
#include "Frontend/CudaArguments.h"
#include "Frontend/Report.h"
#include "Frontend/RewriteAction.h"
#include "Frontend/UnifiedDiff.h"

#include "clang/Basic/Version.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

using namespace clang::tooling;
namespace cl = llvm::cl;

static cl::OptionCategory Category("irregfix options");

static cl::opt<std::string> OutputFile("o", cl::desc("Write the rewritten source to <file> (default: stdout)"),
                                       cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> InPlace("i", cl::desc("Rewrite the input files in place (atomically)"), cl::cat(Category));
static cl::opt<bool> Diff("diff", cl::desc("Print a unified diff of what would change; write nothing"),
                          cl::cat(Category));
static cl::opt<bool> Report("report",
                            cl::desc("Print every indirect site: kernel, pattern, arrays, verdict, reason"),
                            cl::cat(Category));
static cl::opt<bool> Quiet("quiet", cl::desc("Do not print a remark per site"), cl::cat(Category));
static cl::opt<std::string> CudaPath("cuda-path",
                                     cl::desc("CUDA installation (default: $CUDA_PATH, nvcc on PATH, /usr/local/cuda)"),
                                     cl::value_desc("dir"), cl::cat(Category));
static cl::opt<std::string> GpuArch("cuda-gpu-arch", cl::desc("GPU architecture to parse for (default: sm_90)"),
                                    cl::init("sm_90"), cl::value_desc("sm_XX"), cl::cat(Category));
static cl::opt<std::string> ResourceDir("clang-resource-dir",
                                        cl::desc("Clang's resource directory (default: the one irregfix was built with)"),
                                        cl::value_desc("dir"), cl::cat(Category));

static cl::extrahelp Examples(R"(
Examples:
  irregfix spmv.cu -o spmv.irregfix.cu -- -Iinclude   rewrite to a file
  irregfix -i spmv.cu                                  rewrite in place
  irregfix --diff spmv.cu                              show what would change
  irregfix --report spmv.cu                            list sites and verdicts
  irregfix -p build/ src/spmv.cu                       flags from compile_commands.json
)");

static int fail(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "irregfix") << Message << "\n";
  return 1;
}

// Writes Text to Path through a temporary file in the same directory and a
// rename, so Path is never left half-written.
static bool writeAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  llvm::SmallString<256> Model(Path);
  Model += ".irregfix-%%%%%%.tmp";
  int FD;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp)) {
    fail("cannot create a temporary file next to '" + Path + "': " + EC.message());
    return false;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temp);
      fail("cannot write '" + Path + "'");
      return false;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    fail("cannot write '" + Path + "': " + EC.message());
    return false;
  }
  return true;
}

int main(int argc, const char **argv) {
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "irregfix " IRREGFIX_VERSION " (built with " << clang::getClangFullVersion() << ")\n";
  });

  // Without `--` or -p, run with no extra flags rather than complaining that no
  // compilation database was found (as clang-tidy does when one exists).
  std::vector<const char *> Args(argv, argv + argc);
  bool HasSeparator = false, HasBuildPath = false;
  for (int I = 1; I < argc; ++I) {
    llvm::StringRef A = argv[I];
    HasSeparator |= A == "--";
    HasBuildPath |= A == "-p" || A.starts_with("-p=") || A == "--p" || A.starts_with("--p=");
  }
  if (!HasSeparator && !HasBuildPath)
    Args.push_back("--");
  int ArgCount = Args.size();

  auto Parser = CommonOptionsParser::create(ArgCount, Args.data(), Category, cl::OneOrMore,
                                            "irregfix: rewrites indirect loads in CUDA kernels into "
                                            "reads of reordered, coalesced copies.\n");
  if (!Parser) {
    llvm::WithColor::error(llvm::errs(), "irregfix") << llvm::toString(Parser.takeError());
    return 1;
  }
  const std::vector<std::string> &Files = Parser->getSourcePathList();

  if (InPlace && !OutputFile.empty())
    return fail("-i and -o cannot be used together");
  if (Files.size() > 1 && !OutputFile.empty())
    return fail("-o takes one input file; use -i to rewrite several in place");
  if (Diff && (InPlace || !OutputFile.empty()))
    return fail("--diff writes nothing; it cannot be used with -i or -o");
  for (const std::string &F : Files)
    if (!llvm::sys::fs::is_regular_file(F))
      return fail("no such file: '" + F + "'");

  auto Cuda = irregfix::findCudaPath(CudaPath);
  if (!Cuda)
    return fail(CudaPath.empty()
                    ? "cannot find a CUDA installation (looked at $CUDA_PATH, nvcc on PATH and "
                      "/usr/local/cuda); pass --cuda-path=DIR"
                    : "'" + CudaPath + "' is not a CUDA installation (no include/cuda_runtime.h)");
  auto Resource = irregfix::findResourceDir(ResourceDir, argv[0]);
  if (!Resource)
    return fail("cannot find Clang's resource directory (with include/__clang_cuda_runtime_wrapper.h); "
                "pass --clang-resource-dir=DIR");
  auto Stubs = irregfix::findStubHeadersDir("", argv[0]);
  if (!Stubs)
    return fail("cannot find irregfix's stub headers (lib/irregfix/include next to the tool)");

  ClangTool Tool(Parser->getCompilations(), Files);
  Tool.appendArgumentsAdjuster(irregfix::cudaArgumentsAdjuster(*Cuda, GpuArch, *Resource, *Stubs));

  std::vector<irregfix::FileResult> Results;
  irregfix::RewriteOptions Options;
  Options.Remarks = !Quiet;
  int ToolStatus = Tool.run(irregfix::newRewriteActionFactory(Options, &Results).get());

  int Status = 0;
  for (const std::string &F : Files) {
    auto It = std::find_if(Results.begin(), Results.end(), [&](const irregfix::FileResult &R) {
      return llvm::sys::path::filename(R.Path) == llvm::sys::path::filename(F) && R.Parsed;
    });
    if (It == Results.end() || ToolStatus != 0) {
      if (It == Results.end() || !It->Parsed)
        Status = fail("'" + F + "' has errors; nothing was written");
      if (It == Results.end())
        continue;
    }
    if (It->RewriteFailed) {
      Status = fail("could not rewrite '" + F + "'; nothing was written");
      continue;
    }
    llvm::Expected<std::string> Rewritten = applyAllReplacements(It->Original, It->Edits);
    if (!Rewritten) {
      Status = fail("could not apply the edits to '" + F + "': " + llvm::toString(Rewritten.takeError()));
      continue;
    }
    if (Report) {
      llvm::outs() << irregfix::formatReport(It->Sites);
      if (OutputFile.empty() && !InPlace)
        continue;
    }
    if (Diff) {
      llvm::outs() << irregfix::unifiedDiff(It->Original, *Rewritten, F, F);
    } else if (InPlace) {
      if (*Rewritten != It->Original && !writeAtomically(F, *Rewritten))
        Status = 1;
    } else if (!OutputFile.empty()) {
      if (!writeAtomically(OutputFile, *Rewritten))
        Status = 1;
    } else {
      llvm::outs() << *Rewritten;
    }
  }
  return Status;
}
