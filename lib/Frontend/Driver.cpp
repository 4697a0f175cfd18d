#include "Frontend/Driver.h"
#include "Frontend/AtomicWrite.h"
#include "Frontend/DepFile.h"
#include "Frontend/Diagnostics.h"
#include "Frontend/ExportFixes.h"
#include "Frontend/LaunchBrackets.h"
#include "Frontend/Report.h"
#include "Frontend/Stats.h"
#include "Frontend/UnifiedDiff.h"

#include "clang/Basic/Stack.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <chrono>
#include <map>
#include <set>

#ifdef __GLIBC__
#include <malloc.h>
#endif

using namespace clang::tooling;

namespace irregfix {

namespace {

// The stack of the thread that parses and rewrites a file.
constexpr unsigned ToolStackBytes = 512u << 20;

// How a file the edits name (absolute) is shown: relative to the current
// directory when it is under it.
std::string displayPath(llvm::StringRef Path) {
  llvm::SmallString<256> Cwd;
  if (!llvm::sys::fs::current_path(Cwd)) {
    llvm::StringRef Rest = Path;
    if (Rest.consume_front(Cwd) && llvm::sys::path::is_separator(Rest.front()))
      return Rest.drop_front().str();
  }
  return Path.str();
}

// Writes Text to Path through a temporary file in the same directory and a
// rename, so Path is never left half-written.
bool writeFile(llvm::StringRef Path, llvm::StringRef Text) {
  std::string Error;
  if (writeAtomically(Path, Text, Error))
    return true;
  toolError(Error);
  return false;
}

// A file the inputs' rewrites change (an input, or a file it includes).
struct Change {
  std::string Shown; // the input as given, else displayPath()
  std::string By;    // the input whose run changed it first
  std::string Original, Text;
  Replacements Edits;
};

class Driver {
public:
  Driver(const DriverOptions &Opts, const CompilationDatabase &Compilations)
      : Opts(Opts), Compilations(Compilations) {}

  int run() {
    // One tool run per file: its result and its time are its own.
    for (const std::string &F : Opts.Files)
      runFile(F);
    finish();
    return Status;
  }

private:
  void runFile(const std::string &F) {
    // Launches written `k << < g, b >> > (...)` are parsed as nvcc reads them.
    auto FS = llvm::makeIntrusiveRefCnt<LaunchBracketFileSystem>(llvm::vfs::getRealFileSystem());
    ClangTool Tool(Compilations, {F}, std::make_shared<clang::PCHContainerOperations>(), FS);
    for (const ArgumentsAdjuster &A : Opts.Adjusters)
      Tool.appendArgumentsAdjuster(A);
    std::vector<FileResult> Results;
    auto Start = std::chrono::steady_clock::now();
    // Deeply nested code (a long chain of operators) makes Clang's parser and
    // the analyses recurse deeply: they run on a thread with a large stack
    // (address space only; pages are used as the recursion reaches them), and
    // Clang grows its own where it can from the bottom noted here.
    int ToolStatus = 1;
    // Clang prints a diagnostic's source line and caret a character at a
    // time: to an unbuffered stderr that is a system call each, a hundred
    // thousand on a file with a thousand remarks. The run's messages are
    // buffered (not on a terminal, where stderr stays unbuffered) and written
    // when it ends, or when a crash's report is printed (runDriver).
    llvm::errs().SetBuffered();
    llvm::thread Worker(std::optional<unsigned>(ToolStackBytes), [&] {
      clang::noteBottomOfStack();
      ToolStatus = Tool.run(newRewriteActionFactory(Opts.Rewrite, &Results).get());
    });
    Worker.join();
    llvm::errs().SetUnbuffered(); // writes what is buffered
    double Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();

    FileResult *R = Results.empty() ? nullptr : &Results.front();
    if (!R || !R->Parsed || ToolStatus != 0) {
      Status = toolError("'" + F + "' has errors; nothing was written");
      return;
    }
    if (R->RewriteFailed) {
      Status = toolError("could not rewrite '" + F + "'; nothing was written");
      return;
    }
    for (auto &[Path, File] : R->Files.Files) // edited in the spelling on disk
      if (std::optional<std::string> Text = FS->original(Path))
        File.Original = std::move(*Text);
    write(F, *R, Seconds);
  }

  // The edits of F's run applied; empty after an error.
  std::vector<Change> changesOf(const std::string &F, const IncludeTree &Tree) {
    std::vector<Change> Mine;
    for (const std::string &Path : Tree.edited()) {
      const SourceFile &S = Tree.Files.at(Path);
      std::string Shown = Path == Tree.Main ? F : displayPath(Path);
      llvm::Expected<std::string> Rewritten = applyAllReplacements(S.Original, S.Edits);
      if (!Rewritten) {
        Status = toolError("could not apply the edits to '" + Shown + "': " + llvm::toString(Rewritten.takeError()));
        return {};
      }
      Mine.push_back({Shown, F, S.Original, *Rewritten, S.Edits});
    }
    return Mine;
  }

  // Several inputs may include one file, and must then rewrite it alike.
  bool agreesWithEarlierInputs(const std::string &F, const std::vector<std::string> &Edited,
                               const std::vector<Change> &Mine) {
    bool Agree = true;
    for (size_t I = 0; I < Edited.size(); ++I) {
      auto Seen = Changes.find(Edited[I]);
      if (Seen != Changes.end() && (Seen->second.Text != Mine[I].Text || Seen->second.Original != Mine[I].Original)) {
        Status = toolError("'" + Mine[I].Shown + "' is rewritten differently for '" + Seen->second.By + "' and for '" +
                           F + "'; nothing was written for '" + F + "' (rewrite them one at a time)");
        Agree = false;
      }
    }
    return Agree;
  }

  void write(const std::string &F, const FileResult &R, double Seconds) {
    const IncludeTree &Tree = R.Files;
    const std::vector<std::string> Edited = Tree.edited();
    std::vector<Change> Mine = changesOf(F, Tree);
    if (Mine.size() != Edited.size())
      return;
    llvm::Expected<std::string> Single = Tree.singleOutput();
    if (!Single) {
      Status = toolError("could not write '" + F + "' as one file: " + llvm::toString(Single.takeError()));
      return;
    }
    if (!agreesWithEarlierInputs(F, Edited, Mine))
      return;
    if (Opts.PrintStats) {
      Stats One;
      One.add(R, Seconds);
      llvm::errs() << formatStats(F, One);
      Total.add(One);
    }
    KernelsSeen.insert(R.Kernels.begin(), R.Kernels.end());
    if (Opts.Report == ReportFormat::Text)
      llvm::outs() << formatReport(R.Sites, R.Reads);
    if (Opts.Report == ReportFormat::Json)
      JsonReads.insert(JsonReads.end(), R.Reads.begin(), R.Reads.end());
    for (size_t I = 0; I < Edited.size(); ++I) {
      if (Changes.count(Edited[I]))
        continue; // the same rewrite, from an input before
      if (Opts.Diff)
        llvm::outs() << unifiedDiff(Mine[I].Original, Mine[I].Text, Mine[I].Shown, Mine[I].Shown);
      ChangeOrder.push_back(Edited[I]);
      Changes.emplace(Edited[I], std::move(Mine[I]));
    }
    if (!Opts.OutputFile.empty()) {
      if (!writeFile(Opts.OutputFile, *Single))
        Status = 1;
    } else if (Opts.toStdout()) {
      llvm::outs() << *Single;
    }
    if (!Opts.DepFile.empty() && Status == 0) {
      std::string Error;
      if (!writeDepFile(Opts.DepFile, Opts.DepFileTarget.empty() ? Opts.OutputFile : Opts.DepFileTarget,
                        R.Dependencies, Error))
        Status = toolError(Error);
    }
  }

  // What the inputs came to together.
  void finish() {
    // -i: every changed file, or none.
    if (Opts.InPlace && Status == 0) {
      std::vector<FileWrite> Writes;
      for (const std::string &Path : ChangeOrder)
        if (const Change &C = Changes.at(Path); C.Text != C.Original)
          Writes.push_back({Path, C.Text, C.Original});
      std::string Error;
      if (!writeAllOrNothing(Writes, Error))
        Status = toolError(Error);
    }
    for (const std::string &Name : Opts.Rewrite.Hoist.Kernels)
      if (Status == 0 && !KernelsSeen.count(Name))
        llvm::WithColor::warning(llvm::errs(), "irregfix")
            << "--hoist names '" << Name << "', which no input file defines as a kernel\n";
    if (Opts.PrintStats && Opts.Files.size() > 1)
      llvm::errs() << formatStats("total (" + std::to_string(Opts.Files.size()) + " files)", Total);
    if (Opts.Report == ReportFormat::Json)
      llvm::outs() << formatReadsJson(JsonReads);
    std::vector<Replacements> AllEdits;
    for (const std::string &Path : ChangeOrder)
      AllEdits.push_back(Changes.at(Path).Edits);
    if (!Opts.ExportFixes.empty() && Status == 0 &&
        !writeFile(Opts.ExportFixes, exportFixesYaml(Opts.Files.size() == 1 ? Opts.Files.front() : "", AllEdits)))
      Status = 1;
  }

  const DriverOptions &Opts;
  const CompilationDatabase &Compilations;
  int Status = 0;
  // Every changed file, by the path the edits name it, in the order first changed.
  std::map<std::string, Change> Changes;
  std::vector<std::string> ChangeOrder;
  std::set<std::string> KernelsSeen; // to warn about --hoist names no file defines
  std::vector<ReadReport> JsonReads; // --report=json: one document for every input
  Stats Total;
};

} // namespace

int runDriver(const DriverOptions &Options, const CompilationDatabase &Compilations) {
  // A crash's stack dump follows the messages buffered before it (runFile);
  // this handler runs after the ones that print the dump. (LLVM keeps a few
  // handlers only: it is added once.)
  static const bool FlushOnCrash = [] {
    llvm::sys::AddSignalHandler([](void *) { llvm::errs().flush(); }, nullptr);
    return true;
  }();
  (void)FlushOnCrash;
#ifdef __GLIBC__
  // Each file is parsed and analysed on a thread of its own (runFile), which
  // glibc gives a heap of its own, grown a page at a time with a system call
  // each (thousands on a long file). With one arena the thread allocates from
  // the main thread's heap, grown in larger steps; the main thread only waits.
  mallopt(M_ARENA_MAX, 1);
#endif
  return Driver(Options, Compilations).run();
}

} // namespace irregfix
