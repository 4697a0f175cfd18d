// irregfix: rewrites CUDA kernels whose loads go through index arrays so they
// read reordered, coalesced copies built by the irregfix runtime.
//
// This file only parses options, runs the library over the inputs and writes
// the results; the work is in lib/.
#include "Frontend/AtomicWrite.h"
#include "Frontend/CudaArguments.h"
#include "Frontend/CudaVersion.h"
#include "Frontend/DepFile.h"
#include "Frontend/ExportFixes.h"
#include "Frontend/LaunchBrackets.h"
#include "Frontend/Report.h"
#include "Frontend/RewriteAction.h"
#include "Frontend/Stats.h"
#include "Frontend/UnifiedDiff.h"

#include "clang/Basic/Stack.h"
#include "clang/Basic/Version.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <chrono>
#include <map>
#include <set>
#include <vector>

using namespace clang::tooling;
namespace cl = llvm::cl;

// Three groups in --help: what irregfix writes, how it finds CUDA, and the
// flags every Clang tool takes. LLVM's own options stay hidden.
static cl::OptionCategory OutputCategory("irregfix output options");
static cl::OptionCategory CudaCategory("irregfix CUDA options");
static cl::OptionCategory ToolCategory("irregfix compiler flags (as in every Clang tool)");

static cl::opt<std::string> OutputFile("o", cl::desc("Write the rewritten source to <file> (default: stdout)"),
                                       cl::value_desc("file"), cl::cat(OutputCategory));
static cl::opt<bool> InPlace("i", cl::desc("Rewrite the input files in place (atomically)"),
                             cl::cat(OutputCategory));
static cl::opt<bool> Diff("diff", cl::desc("Print a unified diff of what would change, per file; write nothing"),
                          cl::cat(OutputCategory));
static cl::opt<std::string> Report("report",
                                   cl::desc("Print every site and every indirect read: kernel, pattern, arrays, "
                                            "verdict, reason; --report=json: the reads as JSON, one object each"),
                                   cl::value_desc("text|json"), cl::ValueOptional, cl::cat(OutputCategory));
static cl::opt<std::string> ExportFixes("export-fixes",
                                        cl::desc("Write the edits as YAML for clang-apply-replacements to <file>"),
                                        cl::value_desc("file"), cl::cat(OutputCategory));
static cl::opt<std::string> DepFile("depfile",
                                    cl::desc("Write a Make-style depfile of every file the input includes "
                                             "(for build systems)"),
                                    cl::value_desc("file"), cl::cat(OutputCategory));
static cl::opt<std::string> DepFileTarget("depfile-target",
                                          cl::desc("The target named in the depfile (default: the -o file)"),
                                          cl::value_desc("name"), cl::cat(OutputCategory));
static cl::opt<bool> PrintStats("print-stats",
                                cl::desc("Print sites found, rewritten and refused (by reason), kernels, "
                                         "launches, invalidations and time, per file and in total, to stderr"),
                                cl::cat(OutputCategory));
static cl::opt<bool> Quiet("quiet", cl::desc("Do not print a remark per site, nor notes about the CUDA version"),
                           cl::cat(OutputCategory));

static cl::OptionCategory TransformCategory("irregfix transformation options");
static cl::opt<std::string> Hoist("hoist",
                                  cl::desc("Run the loop of each transformed kernel from the host, a slice of "
                                           "iterations a launch (the paper's hoisted loops): --hoist for every "
                                           "kernel that allows it, --hoist=<kernel>[,<kernel>...] for those "
                                           "named. A loop that cannot be hoisted stays in the kernel, with a "
                                           "remark saying why"),
                                  cl::value_desc("kernels"), cl::ValueOptional, cl::cat(TransformCategory));

static cl::opt<std::string> CudaPath("cuda-path",
                                     cl::desc("CUDA installation (default: $CUDA_PATH, nvcc on PATH, /usr/local/cuda)"),
                                     cl::value_desc("dir"), cl::cat(CudaCategory));
static cl::opt<std::string> GpuArch("cuda-gpu-arch", cl::desc("GPU architecture to parse for (default: sm_90)"),
                                    cl::init("sm_90"), cl::value_desc("sm_XX"), cl::cat(CudaCategory));
static cl::opt<std::string> ResourceDir("clang-resource-dir",
                                        cl::desc("Clang's resource directory (default: the one irregfix was built with)"),
                                        cl::value_desc("dir"), cl::cat(CudaCategory));

// What clang::tooling::CommonOptionsParser offers, declared here so that --help
// can show them beside irregfix's own groups (CommonOptionsParser hides every
// option outside the one category it is given).
static cl::opt<std::string> BuildPath("p", cl::desc("Build directory with compile_commands.json"),
                                      cl::value_desc("dir"), cl::cat(ToolCategory));
static cl::list<std::string> ExtraArgs("extra-arg", cl::desc("Additional argument to append to the compiler command line"),
                                       cl::cat(ToolCategory));
static cl::list<std::string> ExtraArgsBefore("extra-arg-before",
                                             cl::desc("Additional argument to prepend to the compiler command line"),
                                             cl::cat(ToolCategory));
static cl::list<std::string> Sources(cl::Positional, cl::desc("<file.cu|file.cuh> ... [-- <compiler flags>]"),
                                     cl::OneOrMore, cl::cat(ToolCategory));

static cl::extrahelp Examples(R"(
Examples:
  irregfix spmv.cu -o spmv.irregfix.cu -- -Iinclude   rewrite to a file (flags for Clang after --)
  irregfix -i a.cu b.cu kernels.cuh                    rewrite several files in place
  irregfix --diff a.cu b.cu                            show what would change, one diff per file
  irregfix --report --print-stats spmv.cu              list sites and verdicts, and the totals
  irregfix --hoist=spmv spmv.cu -o out.cu              run spmv's row loop from the host (hoisted loop)
  irregfix -p build/ src/spmv.cu                       flags from build/compile_commands.json
  irregfix --export-fixes=fixes.yaml spmv.cu           edits for clang-apply-replacements
  irregfix spmv.cu -o out.cu --depfile=out.cu.d        also list the headers it read (for CMake/Ninja)

Exit status: 0 on success, 1 on any error; on error no file is written.
Colours: on a terminal only; --color / --color=false to force.
)");

// The stack of the thread that parses and rewrites a file.
constexpr unsigned ToolStackBytes = 512u << 20;

static int fail(const llvm::Twine &Message) {
  llvm::WithColor::error(llvm::errs(), "irregfix") << Message << "\n";
  return 1;
}

// Writes Text to Path through a temporary file in the same directory and a
// rename, so Path is never left half-written.
static bool writeAtomically(llvm::StringRef Path, llvm::StringRef Text) {
  std::string Error;
  if (irregfix::writeAtomically(Path, Text, Error))
    return true;
  fail(Error);
  return false;
}

// How a file the edits name (absolute) is shown: relative to the current
// directory when it is under it.
static std::string displayPath(llvm::StringRef Path) {
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd)) {
    llvm::StringRef Rest = Path;
    if (Rest.consume_front(Cwd) && llvm::sys::path::is_separator(Rest.front()))
      return Rest.drop_front().str();
  }
  return Path.str();
}

static bool isHeader(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  return Ext == ".cuh" || Ext == ".h" || Ext == ".hpp" || Ext == ".hh" || Ext == ".inl";
}

// LLVM's --color (cl::boolOrDefault, hidden in "Color Options"): shown in the
// CUDA group and handed on to Clang's diagnostics when set.
static cl::Option *colorOption() {
  auto &Map = cl::getRegisteredOptions();
  auto It = Map.find("color");
  return It == Map.end() ? nullptr : It->second;
}

int main(int argc, const char **argv) {
  // A crash prints a stack dump and what to report, not just a signal.
  llvm::InitLLVM Init(argc, argv);
  llvm::setBugReportMsg("PLEASE submit a bug report to the irregfix maintainers with the input file, "
                        "the command line and the stack dump below:\n");
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "irregfix " IRREGFIX_VERSION " (built with " << clang::getClangFullVersion() << ")\n";
  });
  cl::Option *Color = colorOption();
  if (Color) {
    Color->Categories.assign(1, &OutputCategory);
    Color->setDescription("Colour diagnostics (default: only when stderr is a terminal)");
  }
  cl::HideUnrelatedOptions({&OutputCategory, &TransformCategory, &CudaCategory, &ToolCategory});

  // Flags after `--` make a fixed compilation database; without `--` or -p,
  // run with no extra flags (rather than looking for compile_commands.json).
  int ArgCount = argc;
  std::string DbError;
  std::unique_ptr<CompilationDatabase> Compilations =
      FixedCompilationDatabase::loadFromCommandLine(ArgCount, argv, DbError);
  if (!DbError.empty())
    return fail(DbError);
  if (!cl::ParseCommandLineOptions(ArgCount, argv,
                                   "irregfix: rewrites indirect loads in CUDA kernels into reads of "
                                   "reordered, coalesced copies.\n",
                                   &llvm::errs()))
    return 1;
  const std::vector<std::string> Files(Sources.begin(), Sources.end());
  if (!Compilations) {
    if (!BuildPath.empty()) {
      Compilations = CompilationDatabase::autoDetectFromDirectory(BuildPath, DbError);
      if (!Compilations)
        return fail("no compilation database in '" + BuildPath + "': " + DbError);
    } else {
      Compilations = std::make_unique<FixedCompilationDatabase>(".", std::vector<std::string>());
    }
  }

  if (InPlace && !OutputFile.empty())
    return fail("-i and -o cannot be used together");
  if (Files.size() > 1 && !OutputFile.empty())
    return fail("-o takes one input file; use -i to rewrite several in place");
  if (Diff && (InPlace || !OutputFile.empty()))
    return fail("--diff writes nothing; it cannot be used with -i or -o");
  const bool Reporting = Report.getNumOccurrences() > 0;
  if (Reporting && !Report.empty() && Report != "text" && Report != "json")
    return fail("--report takes 'text' or 'json', not '" + Report + "'");
  bool ToStdout = !InPlace && OutputFile.empty() && !Diff && !Reporting && ExportFixes.empty();
  if (Files.size() > 1 && ToStdout)
    return fail("several input files: rewrite them with -i, or see the changes with --diff, --report "
                "or --export-fixes (stdout takes one file)");
  if (!DepFile.empty() && Files.size() > 1)
    return fail("--depfile takes one input file");
  if (!DepFile.empty() && OutputFile.empty() && DepFileTarget.empty())
    return fail("--depfile needs -o or --depfile-target to name the target");
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
  if (!Quiet)
    if (auto V = irregfix::readCudaVersion(*Cuda))
      if (std::string Note = irregfix::newerCudaNote(*Cuda, *V); !Note.empty())
        llvm::WithColor::note(llvm::errs(), "irregfix") << Note << "\n";

  std::vector<ArgumentsAdjuster> Adjusters;
  Adjusters.push_back(irregfix::cudaArgumentsAdjuster(*Cuda, GpuArch, *Resource, *Stubs));
  if (!ExtraArgsBefore.empty())
    Adjusters.push_back(getInsertArgumentAdjuster(std::vector<std::string>(ExtraArgsBefore.begin(),
                                                                           ExtraArgsBefore.end()),
                                                  ArgumentInsertPosition::BEGIN));
  if (!ExtraArgs.empty())
    Adjusters.push_back(getInsertArgumentAdjuster(std::vector<std::string>(ExtraArgs.begin(), ExtraArgs.end()),
                                                  ArgumentInsertPosition::END));
  // A header the user names is parsed as the main file of a CUDA translation unit.
  Adjusters.push_back([](const CommandLineArguments &Args, llvm::StringRef File) {
    CommandLineArguments Out = Args;
    if (isHeader(File))
      Out.insert(Out.begin() + (Out.empty() ? 0 : 1), "-Wno-pragma-once-outside-header");
    return Out;
  });
  if (Color) {
    auto *Opt = static_cast<cl::opt<cl::boolOrDefault> *>(Color);
    if (Opt->getValue() != cl::BOU_UNSET)
      Adjusters.push_back(getInsertArgumentAdjuster(
          Opt->getValue() == cl::BOU_TRUE ? "-fcolor-diagnostics" : "-fno-color-diagnostics",
          ArgumentInsertPosition::END));
  }

  irregfix::RewriteOptions Options;
  Options.Remarks = !Quiet;
  Options.NotRewritten = {*Cuda, *Resource, *Stubs};
  if (Hoist.getNumOccurrences()) {
    Options.Hoist.All = Hoist.empty();
    llvm::SmallVector<llvm::StringRef, 4> Names;
    llvm::StringRef(Hoist).split(Names, ',');
    for (llvm::StringRef Name : Names) {
      if (Options.Hoist.All)
        break;
      if (Name.trim().empty())
        return fail("--hoist=" + Hoist + ": an empty kernel name; write --hoist=<kernel>[,<kernel>...]");
      Options.Hoist.Kernels.push_back(Name.trim().str());
    }
  }
  std::set<std::string> KernelsSeen; // to warn about --hoist names no file defines
  std::vector<irregfix::ReadReport> JsonReads; // --report=json: one document for every input
  irregfix::Stats Total;
  // Every file the inputs' rewrites change (an input, or a file it includes),
  // by the path the edits name it: several inputs may include one file, and
  // must then rewrite it alike.
  struct Change {
    std::string Shown;    // the input as given, else displayPath()
    std::string By;       // the input whose run changed it first
    std::string Original, Text;
    Replacements Edits;
  };
  std::map<std::string, Change> Changes;
  std::vector<std::string> ChangeOrder;
  int Status = 0;
  // One tool run per file: its result and its time are its own.
  for (const std::string &F : Files) {
    // Launches written `k << < g, b >> > (...)` are parsed as nvcc reads them.
    auto FS = llvm::makeIntrusiveRefCnt<irregfix::LaunchBracketFileSystem>(llvm::vfs::getRealFileSystem());
    ClangTool Tool(*Compilations, {F}, std::make_shared<clang::PCHContainerOperations>(), FS);
    for (const ArgumentsAdjuster &A : Adjusters)
      Tool.appendArgumentsAdjuster(A);
    std::vector<irregfix::FileResult> Results;
    auto Start = std::chrono::steady_clock::now();
    // Deeply nested code (a long chain of operators) makes Clang's parser and
    // the analyses recurse deeply: they run on a thread with a large stack
    // (address space only; pages are used as the recursion reaches them), and
    // Clang grows its own where it can from the bottom noted here.
    int ToolStatus = 1;
    llvm::thread Worker(std::optional<unsigned>(ToolStackBytes), [&] {
      clang::noteBottomOfStack();
      ToolStatus = Tool.run(irregfix::newRewriteActionFactory(Options, &Results).get());
    });
    Worker.join();
    double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();

    irregfix::FileResult *It = Results.empty() ? nullptr : &Results.front();
    if (!It || !It->Parsed || ToolStatus != 0) {
      Status = fail("'" + F + "' has errors; nothing was written");
      continue;
    }
    if (It->RewriteFailed) {
      Status = fail("could not rewrite '" + F + "'; nothing was written");
      continue;
    }
    for (auto &[Path, File] : It->Files.Files) // edited in the spelling on disk
      if (std::optional<std::string> Text = FS->original(Path))
        File.Original = std::move(*Text);
    const irregfix::IncludeTree &Tree = It->Files;
    std::vector<std::string> Edited = Tree.edited();
    std::vector<Change> Mine;
    for (const std::string &Path : Edited) {
      const irregfix::SourceFile &S = Tree.Files.at(Path);
      std::string Shown = Path == Tree.Main ? F : displayPath(Path);
      llvm::Expected<std::string> Rewritten = applyAllReplacements(S.Original, S.Edits);
      if (!Rewritten) {
        Status = fail("could not apply the edits to '" + Shown + "': " + llvm::toString(Rewritten.takeError()));
        break;
      }
      Mine.push_back({Shown, F, S.Original, *Rewritten, S.Edits});
    }
    if (Mine.size() != Edited.size())
      continue;
    llvm::Expected<std::string> Single = Tree.singleOutput();
    if (!Single) {
      Status = fail("could not write '" + F + "' as one file: " + llvm::toString(Single.takeError()));
      continue;
    }
    bool Agree = true;
    for (size_t I = 0; I < Edited.size(); ++I) {
      auto Seen = Changes.find(Edited[I]);
      if (Seen != Changes.end() && (Seen->second.Text != Mine[I].Text || Seen->second.Original != Mine[I].Original)) {
        Status = fail("'" + Mine[I].Shown + "' is rewritten differently for '" + Seen->second.By + "' and for '" +
                      F + "'; nothing was written for '" + F + "' (rewrite them one at a time)");
        Agree = false;
      }
    }
    if (!Agree)
      continue;
    if (PrintStats) {
      irregfix::Stats One;
      One.add(*It, Seconds);
      llvm::errs() << irregfix::formatStats(F, One);
      Total.add(One);
    }
    KernelsSeen.insert(It->Kernels.begin(), It->Kernels.end());
    if (Reporting && Report != "json")
      llvm::outs() << irregfix::formatReport(It->Sites, It->Reads);
    if (Report == "json")
      JsonReads.insert(JsonReads.end(), It->Reads.begin(), It->Reads.end());
    for (size_t I = 0; I < Edited.size(); ++I) {
      if (Changes.count(Edited[I]))
        continue; // the same rewrite, from an input before
      if (Diff)
        llvm::outs() << irregfix::unifiedDiff(Mine[I].Original, Mine[I].Text, Mine[I].Shown, Mine[I].Shown);
      ChangeOrder.push_back(Edited[I]);
      Changes.emplace(Edited[I], std::move(Mine[I]));
    }
    if (!OutputFile.empty()) {
      if (!writeAtomically(OutputFile, *Single))
        Status = 1;
    } else if (ToStdout) {
      llvm::outs() << *Single;
    }
    if (!DepFile.empty() && Status == 0) {
      std::string Error;
      if (!irregfix::writeDepFile(DepFile, DepFileTarget.empty() ? OutputFile : DepFileTarget,
                                  It->Dependencies, Error))
        Status = fail(Error);
    }
  }
  // -i: every changed file, or none.
  if (InPlace && Status == 0) {
    std::vector<irregfix::FileWrite> Writes;
    for (const std::string &Path : ChangeOrder)
      if (const Change &C = Changes.at(Path); C.Text != C.Original)
        Writes.push_back({Path, C.Text, C.Original});
    std::string Error;
    if (!irregfix::writeAllOrNothing(Writes, Error))
      Status = fail(Error);
  }
  for (const std::string &Name : Options.Hoist.Kernels)
    if (Status == 0 && !KernelsSeen.count(Name))
      llvm::WithColor::warning(llvm::errs(), "irregfix")
          << "--hoist names '" << Name << "', which no input file defines as a kernel\n";
  if (PrintStats && Files.size() > 1)
    llvm::errs() << irregfix::formatStats("total (" + std::to_string(Files.size()) + " files)", Total);
  if (Report == "json")
    llvm::outs() << irregfix::formatReadsJson(JsonReads);
  std::vector<Replacements> AllEdits;
  for (const std::string &Path : ChangeOrder)
    AllEdits.push_back(Changes.at(Path).Edits);
  if (!ExportFixes.empty() && Status == 0 &&
      !writeAtomically(ExportFixes, irregfix::exportFixesYaml(Files.size() == 1 ? Files.front() : "", AllEdits)))
    Status = 1;
  return Status;
}
