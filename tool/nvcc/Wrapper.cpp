#include "Wrapper.h"
#include "MakeDepFile.h"
#include "NvccCommand.h"
#include "RewriteCache.h"
#include "ToolRun.h"

#include "Frontend/AtomicWrite.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace irregfix::nvcc {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

// Changes whenever a cache entry written by an older wrapper must not be read.
constexpr llvm::StringLiteral CacheFormat = "irregfix-nvcc cache 1 (irregfix " IRREGFIX_VERSION ")";
constexpr unsigned DefaultTimeoutSeconds = 300;

void warnUnchanged(llvm::StringRef Source, const llvm::Twine &Why) {
  llvm::errs() << "irregfix-nvcc: warning: " << Source << ": " << Why << "; compiled unchanged\n";
}

std::optional<std::string> readFile(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

// Runs Command (Command[0] is the program), its output the wrapper's; its exit status.
int execute(llvm::ArrayRef<std::string> Command) {
  std::vector<llvm::StringRef> Argv(Command.begin(), Command.end());
  std::string ErrMsg;
  bool Failed = false;
  int Status = llvm::sys::ExecuteAndWait(Command.front(), Argv, std::nullopt, {}, 0, 0, &ErrMsg, &Failed);
  if (Failed || Status < 0) {
    llvm::errs() << "irregfix-nvcc: error: '" << Command.front() << "': " << ErrMsg << "\n";
    return 1;
  }
  return Status;
}

// A program named on the command line: a path to an executable, or a name on PATH.
std::optional<std::string> programPath(llvm::StringRef Arg) {
  if (Arg.empty() || Arg[0] == '-' || Arg[0] == '@')
    return std::nullopt;
  // nvcc's inputs are recognised by their suffix; a program has none of those.
  llvm::StringRef Ext = path::extension(Arg);
  if (llvm::is_contained({".cu", ".c", ".cc", ".cpp", ".cxx", ".C", ".o", ".obj", ".a", ".so", ".ptx", ".cubin",
                          ".fatbin", ".gpu", ".i", ".ii", ".ltoir", ".optixir", ".lib", ".res"},
                         Ext))
    return std::nullopt;
  if (Arg.contains('/'))
    return fs::can_execute(Arg) && !fs::is_directory(Arg) ? std::optional<std::string>(Arg.str()) : std::nullopt;
  llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Arg);
  return Found ? std::optional<std::string>(*Found) : std::nullopt;
}

bool isNvcc(llvm::StringRef Program) { return path::filename(Program).starts_with("nvcc"); }

// `tool size mtime`: a rebuilt or reinstalled tool makes new cache keys.
std::string fileIdentity(llvm::StringRef File) {
  fs::file_status Status;
  if (fs::status(File, Status))
    return File.str() + " missing";
  return File.str() + " " + std::to_string(Status.getSize()) + " " +
         std::to_string(Status.getLastModificationTime().time_since_epoch().count());
}

bool changedSince(const std::vector<std::string> &Files, llvm::sys::TimePoint<> Start) {
  return llvm::any_of(Files, [&](const std::string &F) {
    fs::file_status Status;
    return fs::status(F, Status) || Status.getLastModificationTime() >= Start;
  });
}

// `-Xcompiler` splits its value at commas; `\,` keeps one.
std::string escapeCommas(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text) {
    if (C == ',')
      Out += '\\';
    Out += C;
  }
  return Out;
}

std::string absoluteDirectoryOf(llvm::StringRef File) {
  llvm::SmallString<256> Abs(File);
  fs::make_absolute(Abs);
  path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return path::parent_path(Abs).str();
}

// The depfile nvcc writes for Source under -MD: -MF's, else -o's with its
// suffix made .d, else the source's name with .d in the working directory.
std::string nvccDepFile(const NvccCommand &C, llvm::StringRef Source) {
  if (!C.DependencyFile.empty())
    return C.DependencyFile;
  llvm::SmallString<256> Name(C.OutputFile.empty() ? path::filename(Source) : llvm::StringRef(C.OutputFile));
  path::replace_extension(Name, ".d");
  return std::string(Name);
}

// A source nvcc compiles from its rewritten copy.
struct Replaced {
  const Input *Source;
  std::string Copy;
};

class Wrapper {
public:
  Wrapper(llvm::StringRef WrapperPath, const Environment &Env) : WrapperPath(WrapperPath), Env(Env) {}

  int run(llvm::ArrayRef<std::string> Args) {
    // The launcher form: programs first (`[ccache] /path/to/nvcc -c a.cu`).
    size_t First = 0;
    std::vector<std::string> Programs;
    while (First < Args.size())
      if (std::optional<std::string> P = programPath(Args[First])) {
        Programs.push_back(*P);
        ++First;
      } else {
        break;
      }
    if (!Programs.empty() && !isNvcc(Programs.back()))
      return execute(Args); // a compiler the wrapper does not know: run it as it is
    if (Programs.empty()) {
      std::optional<std::string> Real = findRealNvcc(WrapperPath, Env);
      if (!Real) {
        llvm::errs() << "irregfix-nvcc: error: cannot find nvcc (set IRREGFIX_NVCC_REAL, or put nvcc on PATH)\n";
        return 1;
      }
      Programs.push_back(*Real);
    }
    Nvcc = Programs.back();
    Command.assign(Programs.begin(), Programs.end());
    std::vector<std::string> NvccArgs(Args.begin() + First, Args.end());

    markNested();
    if (Env.Disabled || Env.Nested)
      return execute(concat(NvccArgs));
    std::string Error;
    std::optional<std::vector<std::string>> Expanded = expandOptionsFiles(NvccArgs, Error);
    if (!Expanded)
      return execute(concat(NvccArgs)); // nvcc says what is wrong with them
    NvccCommand C = readNvccCommand(std::move(*Expanded));
    if (!C.compilesHostCode())
      return execute(concat(C.Args));

    Installation Found = findInstallation(WrapperPath, Env);
    std::vector<Replaced> Rewritten;
    for (const Input &In : C.Inputs) {
      if (!In.IsCuda)
        continue;
      if (!C.UnknownOption.empty()) {
        warnUnchanged(In.Path, "unknown nvcc option '" + C.UnknownOption + "'");
      } else if (Found.RuntimeLibrary.empty()) {
        warnUnchanged(In.Path, "irregfix's runtime library is not found (<prefix>/lib beside <prefix>/bin/irregfix-nvcc)");
      } else if (std::optional<std::string> Copy = rewrite(In, C, Found)) {
        Rewritten.push_back({&In, *Copy});
      }
    }

    std::vector<std::string> Out = Command;
    std::vector<std::string> Dirs;
    for (const Replaced &R : Rewritten)
      if (std::string Dir = absoluteDirectoryOf(R.Source->Path); !llvm::is_contained(Dirs, Dir))
        Dirs.push_back(Dir);
    // The copy's quoted #includes find the original's neighbours first, as the original's do.
    for (const std::string &Dir : Dirs)
      Out.push_back("-Xcompiler=-iquote," + escapeCommas(Dir));
    std::vector<std::string> NvccArgsOut = C.Args;
    for (const Replaced &R : Rewritten)
      NvccArgsOut[R.Source->ArgIndex] = R.Copy;
    Out.insert(Out.end(), NvccArgsOut.begin(), NvccArgsOut.end());
    if (!Rewritten.empty())
      Out.insert(Out.end(), {"-isystem", Found.RuntimeInclude});
    if (C.links() && !Found.RuntimeLibrary.empty())
      Out.insert(Out.end(), {Found.RuntimeLibrary, "-ldl"});

    int Status = execute(Out);
    if (Status == 0 && C.DependenciesWithCompile)
      for (const Replaced &R : Rewritten)
        mendDependencies(C, R);
    return Status;
  }

private:
  std::vector<std::string> concat(llvm::ArrayRef<std::string> Args) const {
    std::vector<std::string> Out = Command;
    Out.insert(Out.end(), Args.begin(), Args.end());
    return Out;
  }

  ToolSetup toolSetup(const Installation &Found) const {
    ToolSetup S;
    S.Tool = Found.Tool;
    llvm::BumpPtrAllocator Alloc;
    llvm::StringSaver Saver(Alloc);
    llvm::SmallVector<const char *, 8> Tokens;
    llvm::cl::TokenizeGNUCommandLine(Env.ToolArgs, Saver, Tokens);
    S.Options.assign(Tokens.begin(), Tokens.end());
    // The tool parses against the toolkit of the nvcc that compiles.
    bool HasCudaPath = llvm::any_of(S.Options, [](llvm::StringRef O) { return O.starts_with("--cuda-path"); });
    if (std::string Cuda = cudaPathOf(Nvcc); !HasCudaPath && !Cuda.empty())
      S.Options.push_back("--cuda-path=" + Cuda);
    unsigned Seconds = 0;
    S.TimeoutSeconds = llvm::to_integer(Env.Timeout, Seconds) && Seconds > 0 ? Seconds : DefaultTimeoutSeconds;
    return S;
  }

  // The request key: everything the rewrite depends on but the headers' content.
  static std::optional<std::string> requestKey(const ToolSetup &S, const Input &In, const NvccCommand &C) {
    std::optional<std::string> Content = readFile(In.Path);
    llvm::SmallString<256> Cwd;
    if (!Content || fs::current_path(Cwd))
      return std::nullopt;
    std::string Material = CacheFormat.str() + "\ntool " + fileIdentity(S.Tool) + "\ncwd " + std::string(Cwd) +
                           "\nsource " + In.Path + "\ncontent " + hashHex(*Content) + "\n";
    for (const std::string &O : S.Options)
      Material += "option " + O + '\0';
    for (const std::string &F : C.ToolFlags)
      Material += "flag " + F + '\0';
    return hashHex(Material);
  }

  // The rewritten copy nvcc compiles instead of In; nothing when it compiles In
  // itself (nothing to rewrite, or a warning said why not).
  std::optional<std::string> rewrite(const Input &In, const NvccCommand &C, const Installation &Found) {
    const ToolSetup S = toolSetup(Found);
    std::optional<std::string> Key = requestKey(S, In, C);
    if (!Key)
      return warnUnchanged(In.Path, "cannot read it"), std::nullopt;
    RewriteCache Cache(cacheRoot(Env));
    bool FromCache = true;
    std::optional<std::string> Entry = Cache.find(*Key);
    if (!Entry) {
      FromCache = false;
      Entry = rewriteNow(S, In, C, Cache, *Key);
      if (!Entry)
        return std::nullopt;
    }
    const Outcome O = readOutcome(*Entry);
    if (Env.Verbose)
      llvm::errs() << "irregfix-nvcc: " << In.Path << ": "
                   << (O == Outcome::Rewritten ? "rewritten" : "nothing to rewrite") << (FromCache ? " (cached)" : "")
                   << "; report: " << *Entry << "/"
                   << reportName(In.Path) << "\n";
    if (O != Outcome::Rewritten)
      return std::nullopt;
    return *Entry + "/" + rewrittenName(In.Path);
  }

  // Runs the tool and keeps what it wrote in the cache; the entry.
  std::optional<std::string> rewriteNow(const ToolSetup &S, const Input &In, const NvccCommand &C,
                                        const RewriteCache &Cache, llvm::StringRef Key) {
    llvm::Expected<std::string> Run = Cache.startRun(Key);
    if (!Run)
      return warnUnchanged(In.Path, "cannot write irregfix-nvcc's cache: " + llvm::toString(Run.takeError())),
             std::nullopt;
    const auto Start = std::chrono::system_clock::now();
    ToolRunResult R = runTool(S, In.Path, C.ToolFlags, *Run);
    if (R.Result == Outcome::Refused || R.Result == Outcome::Failed) {
      // The tool's log stays where the user can read it.
      std::string Kept = (path::parent_path(*Run) + "/last-failure").str();
      fs::remove_directories(Kept, /*IgnoreErrors=*/true);
      if (fs::rename(*Run, Kept))
        Cache.discard(*Run);
      warnUnchanged(In.Path, R.Why);
      if (Env.Verbose)
        llvm::errs() << "irregfix-nvcc: " << In.Path << ": the tool's messages: " << Kept << "/" << logName(In.Path)
                     << "\n";
      return std::nullopt;
    }
    if (changedSince(R.FilesRead, Start)) {
      Cache.discard(*Run);
      return warnUnchanged(In.Path, "a file it includes changed while irregfix read it"), std::nullopt;
    }
    llvm::Expected<std::string> Entry = Cache.publish(Key, *Run, R.FilesRead);
    if (!Entry) {
      Cache.discard(*Run);
      return warnUnchanged(In.Path, "cannot write irregfix-nvcc's cache: " + llvm::toString(Entry.takeError())),
             std::nullopt;
    }
    return *Entry;
  }

  // nvcc's -MD depfile names the copy; make it name the source, and the
  // headers the copy holds inlined.
  void mendDependencies(const NvccCommand &C, const Replaced &R) const {
    const std::string DepFile = nvccDepFile(C, R.Source->Path);
    std::optional<std::string> Text = readFile(DepFile);
    std::optional<std::string> Copy = readFile(R.Copy);
    if (!Text || !Copy)
      return;
    std::string Mended = mendDepFile(*Text, R.Copy, R.Source->Path, inlinedFiles(*Copy, R.Source->Path));
    std::string Error;
    if (Mended != *Text && !writeAtomically(DepFile, Mended, Error))
      llvm::errs() << "irregfix-nvcc: warning: " << Error << "\n";
  }

  const std::string WrapperPath;
  const Environment &Env;
  std::string Nvcc;                 // the real nvcc
  std::vector<std::string> Command; // what runs it: launchers, then nvcc
};

} // namespace

int runWrapper(llvm::StringRef WrapperPath, llvm::ArrayRef<std::string> Args, const Environment &Env) {
  return Wrapper(WrapperPath, Env).run(Args);
}

} // namespace irregfix::nvcc
