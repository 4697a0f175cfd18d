#include "CommandLine.h"
#include "Frontend/CudaArguments.h"
#include "Frontend/CudaVersion.h"
#include "Frontend/Diagnostics.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

using namespace clang::tooling;
namespace cl = llvm::cl;

namespace irregfix {

namespace {

// The options as LLVM's parser declares them, read once into DriverOptions.
// Three groups in --help: what irregfix writes, how it finds CUDA, and the
// flags every Clang tool takes. LLVM's own options stay hidden.
struct Options {
  cl::OptionCategory Output{"irregfix output options"};
  cl::OptionCategory Transform{"irregfix transformation options"};
  cl::OptionCategory Cuda{"irregfix CUDA options"};
  cl::OptionCategory Tool{"irregfix compiler flags (as in every Clang tool)"};

  cl::opt<std::string> OutputFile{"o", cl::desc("Write the rewritten source to <file> (default: stdout)"),
                                  cl::value_desc("file"), cl::cat(Output)};
  cl::opt<bool> InPlace{"i", cl::desc("Rewrite the input files in place (atomically)"), cl::cat(Output)};
  cl::opt<bool> Diff{"diff", cl::desc("Print a unified diff of what would change, per file; write nothing"),
                     cl::cat(Output)};
  cl::opt<std::string> Report{"report",
                              cl::desc("Print every site and every indirect read: kernel, pattern, arrays, "
                                       "verdict, reason; --report=json: the reads as JSON, one object each"),
                              cl::value_desc("text|json"), cl::ValueOptional, cl::cat(Output)};
  cl::opt<std::string> ExportFixes{"export-fixes",
                                   cl::desc("Write the edits as YAML for clang-apply-replacements to <file>"),
                                   cl::value_desc("file"), cl::cat(Output)};
  cl::opt<std::string> DepFile{"depfile",
                               cl::desc("Write a Make-style depfile of every file the input includes "
                                        "(for build systems)"),
                               cl::value_desc("file"), cl::cat(Output)};
  cl::opt<std::string> DepFileTarget{"depfile-target",
                                     cl::desc("The target named in the depfile (default: the -o file)"),
                                     cl::value_desc("name"), cl::cat(Output)};
  cl::opt<bool> PrintStats{"print-stats",
                           cl::desc("Print sites found, rewritten and refused (by reason), kernels, "
                                    "launches, invalidations and time, per file and in total, to stderr"),
                           cl::cat(Output)};
  cl::opt<bool> Quiet{"quiet", cl::desc("Do not print a remark per site, nor notes about the CUDA version"),
                      cl::cat(Output)};

  cl::opt<std::string> Hoist{"hoist",
                             cl::desc("Run the loop of each transformed kernel from the host, a slice of "
                                      "iterations a launch (the paper's hoisted loops): --hoist for every "
                                      "kernel that allows it, --hoist=<kernel>[,<kernel>...] for those "
                                      "named. A loop that cannot be hoisted stays in the kernel, with a "
                                      "remark saying why"),
                             cl::value_desc("kernels"), cl::ValueOptional, cl::cat(Transform)};
  cl::opt<bool> Reassociate{"reassociate",
                            cl::desc("Let floating-point sums (and min, max) run in another order, as "
                                     "-ffast-math lets a compiler: a range loop that sums floats may then "
                                     "run with several lanes a row, its results differing from the "
                                     "original's in the last bits (IRREGFIX_VERIFY=1 measures by how much). "
                                     "Integer, min/max and bitwise reductions need no opt-in"),
                            cl::cat(Transform)};
  cl::opt<double> AnalysisBudget{"analysis-budget",
                                 cl::desc("How long one kernel's analysis may take, as a multiple of the file's "
                                          "parse (default: 3; at least --analysis-budget-floor); past it the "
                                          "kernel is left as it is, with a remark. A negative value: no limit"),
                                 cl::init(3), cl::value_desc("factor"), cl::cat(Transform)};
  cl::opt<double> AnalysisBudgetFloor{"analysis-budget-floor",
                                      cl::desc("The least time one kernel's analysis may take, in seconds "
                                               "(default: 2)"),
                                      cl::init(2), cl::value_desc("seconds"), cl::cat(Transform)};

  cl::opt<std::string> CudaPath{"cuda-path",
                                cl::desc("CUDA installation (default: $CUDA_PATH, nvcc on PATH, /usr/local/cuda)"),
                                cl::value_desc("dir"), cl::cat(Cuda)};
  cl::opt<std::string> GpuArch{"cuda-gpu-arch", cl::desc("GPU architecture to parse for (default: sm_90)"),
                               cl::init("sm_90"), cl::value_desc("sm_XX"), cl::cat(Cuda)};
  cl::opt<std::string> ResourceDir{"clang-resource-dir",
                                   cl::desc("Clang's resource directory (default: the one irregfix was built with)"),
                                   cl::value_desc("dir"), cl::cat(Cuda)};

  // What clang::tooling::CommonOptionsParser offers, declared here so that
  // --help can show them beside irregfix's own groups (CommonOptionsParser
  // hides every option outside the one category it is given).
  cl::opt<std::string> BuildPath{"p", cl::desc("Build directory with compile_commands.json"), cl::value_desc("dir"),
                                 cl::cat(Tool)};
  cl::list<std::string> ExtraArgs{"extra-arg", cl::desc("Additional argument to append to the compiler command line"),
                                  cl::cat(Tool)};
  cl::list<std::string> ExtraArgsBefore{"extra-arg-before",
                                        cl::desc("Additional argument to prepend to the compiler command line"),
                                        cl::cat(Tool)};
  cl::list<std::string> Sources{cl::Positional, cl::desc("<file.cu|file.cuh> ... [-- <compiler flags>]"),
                                cl::OneOrMore, cl::cat(Tool)};

  cl::extrahelp Examples{R"(
Examples:
  irregfix spmv.cu -o spmv.irregfix.cu -- -Iinclude   rewrite to a file (flags for Clang after --)
  irregfix -i a.cu b.cu kernels.cuh                    rewrite several files in place
  irregfix --diff a.cu b.cu                            show what would change, one diff per file
  irregfix --report --print-stats spmv.cu              list sites and verdicts, and the totals
  irregfix --hoist=spmv spmv.cu -o out.cu              run spmv's row loop from the host (hoisted loop)
  irregfix --reassociate spmv.cu -o out.cu             let float row sums run with several lanes a row
  irregfix -p build/ src/spmv.cu                       flags from build/compile_commands.json
  irregfix --export-fixes=fixes.yaml spmv.cu           edits for clang-apply-replacements
  irregfix spmv.cu -o out.cu --depfile=out.cu.d        also list the headers it read (for CMake/Ninja)

Exit status: 0 on success, 1 on any error; on error no file is written.
Colours: on a terminal only; --color / --color=false to force.
)"};
};

// LLVM's --color (cl::boolOrDefault, hidden in "Color Options"): shown with
// the output options and handed on to Clang's diagnostics when set.
cl::opt<cl::boolOrDefault> *colorOption() {
  auto &Map = cl::getRegisteredOptions();
  auto It = Map.find("color");
  return It == Map.end() ? nullptr : static_cast<cl::opt<cl::boolOrDefault> *>(It->second);
}

bool isHeader(llvm::StringRef File) {
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  return Ext == ".cuh" || Ext == ".h" || Ext == ".hpp" || Ext == ".hh" || Ext == ".inl";
}

// The combinations of outputs that make sense, and files that exist.
bool validate(const Options &O, const DriverOptions &D) {
  const size_t Files = D.Files.size();
  auto Fail = [](const llvm::Twine &Message) { return toolError(Message), false; };
  if (O.InPlace && !O.OutputFile.empty())
    return Fail("-i and -o cannot be used together");
  if (Files > 1 && !O.OutputFile.empty())
    return Fail("-o takes one input file; use -i to rewrite several in place");
  if (O.Diff && (O.InPlace || !O.OutputFile.empty()))
    return Fail("--diff writes nothing; it cannot be used with -i or -o");
  if (O.Report.getNumOccurrences() > 0 && !O.Report.empty() && O.Report != "text" && O.Report != "json")
    return Fail("--report takes 'text' or 'json', not '" + O.Report + "'");
  if (Files > 1 && D.toStdout())
    return Fail("several input files: rewrite them with -i, or see the changes with --diff, --report "
                "or --export-fixes (stdout takes one file)");
  if (!O.DepFile.empty() && Files > 1)
    return Fail("--depfile takes one input file");
  if (!O.DepFile.empty() && O.OutputFile.empty() && O.DepFileTarget.empty())
    return Fail("--depfile needs -o or --depfile-target to name the target");
  for (const std::string &F : D.Files)
    if (!llvm::sys::fs::is_regular_file(F))
      return Fail("no such file: '" + F + "'");
  return true;
}

// Clang's flags: CUDA's (found here), --extra-arg-before, --extra-arg, a
// header parsed as a main file, colours; and the directories never rewritten.
bool addCompilerFlags(const Options &O, const char *Argv0, DriverOptions &D) {
  auto Cuda = findCudaPath(O.CudaPath);
  if (!Cuda)
    return toolError(O.CudaPath.empty()
                         ? "cannot find a CUDA installation (looked at $CUDA_PATH, nvcc on PATH and "
                           "/usr/local/cuda); pass --cuda-path=DIR"
                         : "'" + O.CudaPath + "' is not a CUDA installation (no include/cuda_runtime.h)"),
           false;
  auto Resource = findResourceDir(O.ResourceDir, Argv0);
  if (!Resource)
    return toolError("cannot find Clang's resource directory (with include/__clang_cuda_runtime_wrapper.h); "
                     "pass --clang-resource-dir=DIR"),
           false;
  auto Stubs = findStubHeadersDir("", Argv0);
  if (!Stubs)
    return toolError("cannot find irregfix's stub headers (lib/irregfix/include next to the tool)"), false;
  if (!O.Quiet)
    if (auto V = readCudaVersion(*Cuda))
      if (std::string Note = newerCudaNote(*Cuda, *V); !Note.empty())
        llvm::WithColor::note(llvm::errs(), "irregfix") << Note << "\n";
  D.Rewrite.NotRewritten = {*Cuda, *Resource, *Stubs};

  D.Adjusters.push_back(cudaArgumentsAdjuster(*Cuda, O.GpuArch, *Resource, *Stubs));
  if (!O.ExtraArgsBefore.empty())
    D.Adjusters.push_back(getInsertArgumentAdjuster(
        std::vector<std::string>(O.ExtraArgsBefore.begin(), O.ExtraArgsBefore.end()), ArgumentInsertPosition::BEGIN));
  if (!O.ExtraArgs.empty())
    D.Adjusters.push_back(getInsertArgumentAdjuster(std::vector<std::string>(O.ExtraArgs.begin(), O.ExtraArgs.end()),
                                                    ArgumentInsertPosition::END));
  // A header the user names is parsed as the main file of a CUDA translation unit.
  D.Adjusters.push_back([](const CommandLineArguments &Args, llvm::StringRef File) {
    CommandLineArguments Out = Args;
    if (isHeader(File))
      Out.insert(Out.begin() + (Out.empty() ? 0 : 1), "-Wno-pragma-once-outside-header");
    return Out;
  });
  if (cl::opt<cl::boolOrDefault> *Color = colorOption(); Color && Color->getValue() != cl::BOU_UNSET)
    D.Adjusters.push_back(getInsertArgumentAdjuster(
        Color->getValue() == cl::BOU_TRUE ? "-fcolor-diagnostics" : "-fno-color-diagnostics",
        ArgumentInsertPosition::END));
  return true;
}

// --hoist: every kernel, or those named.
bool readHoist(const Options &O, HoistSelection &Hoist) {
  if (!O.Hoist.getNumOccurrences())
    return true;
  Hoist.All = O.Hoist.empty();
  llvm::SmallVector<llvm::StringRef, 4> Names;
  llvm::StringRef(O.Hoist).split(Names, ',');
  for (llvm::StringRef Name : Names) {
    if (Hoist.All)
      break;
    if (Name.trim().empty())
      return toolError("--hoist=" + O.Hoist + ": an empty kernel name; write --hoist=<kernel>[,<kernel>...]"), false;
    Hoist.Kernels.push_back(Name.trim().str());
  }
  return true;
}

} // namespace

bool parseCommandLine(int argc, const char **argv, DriverOptions &D,
                      std::unique_ptr<CompilationDatabase> &Compilations) {
  static Options O; // registered with LLVM's parser for the life of the process
  if (cl::opt<cl::boolOrDefault> *Color = colorOption()) {
    Color->Categories.assign(1, &O.Output);
    Color->setDescription("Colour diagnostics (default: only when stderr is a terminal)");
  }
  cl::HideUnrelatedOptions({&O.Output, &O.Transform, &O.Cuda, &O.Tool});

  // Flags after `--` make a fixed compilation database; without `--` or -p,
  // run with no extra flags (rather than looking for compile_commands.json).
  int ArgCount = argc;
  std::string DbError;
  Compilations = FixedCompilationDatabase::loadFromCommandLine(ArgCount, argv, DbError);
  if (!DbError.empty())
    return toolError(DbError), false;
  if (!cl::ParseCommandLineOptions(ArgCount, argv,
                                   "irregfix: rewrites indirect loads in CUDA kernels into reads of "
                                   "reordered, coalesced copies.\n",
                                   &llvm::errs()))
    return false;
  D.Files.assign(O.Sources.begin(), O.Sources.end());
  if (!Compilations && !O.BuildPath.empty()) {
    Compilations = CompilationDatabase::autoDetectFromDirectory(O.BuildPath, DbError);
    if (!Compilations)
      return toolError("no compilation database in '" + O.BuildPath + "': " + DbError), false;
  } else if (!Compilations) {
    Compilations = std::make_unique<FixedCompilationDatabase>(".", std::vector<std::string>());
  }

  D.OutputFile = O.OutputFile;
  D.InPlace = O.InPlace;
  D.Diff = O.Diff;
  if (O.Report.getNumOccurrences() > 0)
    D.Report = O.Report == "json" ? ReportFormat::Json : ReportFormat::Text;
  D.ExportFixes = O.ExportFixes;
  D.DepFile = O.DepFile;
  D.DepFileTarget = O.DepFileTarget;
  D.PrintStats = O.PrintStats;
  D.Rewrite.Remarks = !O.Quiet;
  D.Rewrite.Reassociate = O.Reassociate;
  D.Rewrite.BudgetFactor = O.AnalysisBudget;
  D.Rewrite.BudgetFloorSeconds = O.AnalysisBudgetFloor;
  return validate(O, D) && addCompilerFlags(O, argv[0], D) && readHoist(O, D.Rewrite.Hoist);
}

} // namespace irregfix
