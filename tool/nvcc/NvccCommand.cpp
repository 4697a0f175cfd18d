#include "NvccCommand.h"
#include "NvccOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

namespace irregfix::nvcc {

namespace {

// C and C++ sources, which `-x cu` makes CUDA sources.
bool isSourceFile(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::is_contained({".cu", ".c", ".cc", ".cp", ".cpp", ".cxx", ".c++", ".C", ".CPP"}, Ext);
}

// The preprocessor flags of a host compiler command line (-Xcompiler's list,
// or options forwarded to it), for the tool's parse. The rest are code
// generation and warning flags, which the parse does not need.
class HostFlagReader {
public:
  explicit HostFlagReader(std::vector<std::string> &Out) : Out(Out) {}

  void read(llvm::StringRef Flag) {
    if (!Pending.empty()) {
      Out.push_back(Pending);
      Out.push_back(Flag.str());
      Pending.clear();
      return;
    }
    for (llvm::StringRef Name : {"-D", "-U", "-I", "-isystem", "-include", "-iquote", "-idirafter", "-imacros"}) {
      if (!Flag.starts_with(Name))
        continue;
      if (Flag == Name) {
        Pending = Name.str(); // its value is the next item
      } else if (Name.size() == 2 || Name == "-isystem" || Name == "-iquote" || Name == "-idirafter") {
        Out.push_back(Flag.str()); // -DX, -Idir, -isystemdir: Clang reads them joined too
      } else {
        continue; // -includefoo is not -include
      }
      return;
    }
  }

private:
  std::vector<std::string> &Out;
  std::string Pending;
};

class CommandReader {
public:
  explicit CommandReader(NvccCommand &C) : C(C), Host(HostFlags) {}

  void read() {
    for (const std::string &A : C.Args)
      if (auto M = matchOption(A); M && M->Spec->Kind == OptionKind::ForwardUnknown)
        ForwardUnknown = true;
    for (size_t I = 0; I < C.Args.size(); ++I) {
      const std::string &A = C.Args[I];
      if (A.empty() || A[0] != '-' || A == "-") {
        C.Inputs.push_back({I, A, false});
        continue;
      }
      std::optional<OptionMatch> M = matchOption(A);
      if (!M) {
        if (ForwardUnknown)
          Host.read(A);
        else if (C.UnknownOption.empty())
          C.UnknownOption = A;
        continue;
      }
      std::string Value = M->Value;
      if (M->ValueInNext) {
        if (I + 1 == C.Args.size()) {
          if (C.UnknownOption.empty())
            C.UnknownOption = A; // nvcc: "argument expected after"
          continue;
        }
        Value = C.Args[++I];
      }
      option(*M->Spec, Value);
    }
    // nvcc gives -Xcompiler's flags to the preprocessor before its own.
    C.ToolFlags.insert(C.ToolFlags.begin(), HostFlags.begin(), HostFlags.end());
    C.CompilePhase = Phase::Link;
    if (Seen[OptionKind::StopsBeforeLink])
      C.CompilePhase = Phase::Compile;
    if (Seen[OptionKind::NoHostCode])
      C.CompilePhase = Phase::NoHostCode;
    if (Seen[OptionKind::Informational])
      C.CompilePhase = Phase::NothingCompiled;
    for (Input &In : C.Inputs)
      In.IsCuda = In.Path != "-" &&
                  (Language ? *Language == "cu" && isSourceFile(In.Path) : llvm::sys::path::extension(In.Path) == ".cu");
  }

private:
  void option(const OptionSpec &Spec, const std::string &Value) {
    Seen[Spec.Kind] = true;
    llvm::SmallVector<std::string, 4> Items;
    switch (Spec.Kind) {
    case OptionKind::IncludePath:
    case OptionKind::Define:
    case OptionKind::Undefine: {
      splitListValue(Value, Items);
      const char *Flag = Spec.Kind == OptionKind::IncludePath ? "-I" : Spec.Kind == OptionKind::Define ? "-D" : "-U";
      for (const std::string &Item : Items)
        C.ToolFlags.push_back(Flag + Item);
      break;
    }
    case OptionKind::SystemInclude:
    case OptionKind::PreInclude:
      splitListValue(Value, Items);
      for (const std::string &Item : Items) {
        C.ToolFlags.push_back(Spec.Kind == OptionKind::SystemInclude ? "-isystem" : "-include");
        C.ToolFlags.push_back(Item);
      }
      break;
    case OptionKind::Standard:
      C.ToolFlags.push_back("-std=" + Value);
      break;
    case OptionKind::Language:
      Language = Value;
      break;
    case OptionKind::HostCompiler:
      splitListValue(Value, Items);
      for (const std::string &Item : Items)
        Host.read(Item);
      break;
    case OptionKind::Output:
      C.OutputFile = Value;
      break;
    case OptionKind::DependencyOutput:
      C.DependencyFile = Value;
      break;
    case OptionKind::DependencyWithCompile:
      C.DependenciesWithCompile = true;
      break;
    default:
      break;
    }
  }

  NvccCommand &C;
  std::vector<std::string> HostFlags;
  HostFlagReader Host;
  bool ForwardUnknown = false;
  std::optional<std::string> Language; // -x
  std::map<OptionKind, bool> Seen;
};

} // namespace

NvccCommand readNvccCommand(std::vector<std::string> Args) {
  NvccCommand C;
  C.Args = std::move(Args);
  CommandReader(C).read();
  return C;
}

std::optional<std::vector<std::string>> expandOptionsFiles(llvm::ArrayRef<std::string> Args, std::string &Error) {
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 64> Argv;
  for (const std::string &A : Args)
    Argv.push_back(Saver.save(A).data());

  // nvcc's -optf becomes `@file`, which LLVM's expansion reads (nested ones
  // too); an options file may itself name another with -optf, so repeat.
  constexpr int MaxDepth = 16;
  for (int Round = 0;; ++Round) {
    llvm::cl::ExpansionContext Expansion(Alloc, llvm::cl::TokenizeGNUCommandLine);
    if (llvm::Error E = Expansion.expandResponseFiles(Argv))
      return Error = llvm::toString(std::move(E)), std::nullopt;
    llvm::SmallVector<const char *, 64> Next;
    bool Found = false;
    for (size_t I = 0; I < Argv.size(); ++I) {
      std::optional<OptionMatch> M = matchOption(Argv[I]);
      if (!M || M->Spec->Kind != OptionKind::OptionsFile) {
        Next.push_back(Argv[I]);
        continue;
      }
      std::string Value = M->Value;
      if (M->ValueInNext) {
        if (I + 1 == Argv.size())
          return Error = "'" + std::string(Argv[I]) + "' names no file", std::nullopt;
        Value = Argv[++I];
      }
      llvm::SmallVector<std::string, 2> Files;
      splitListValue(Value, Files);
      for (const std::string &F : Files) {
        if (!llvm::sys::fs::is_regular_file(F))
          return Error = "cannot read the options file '" + F + "'", std::nullopt;
        Next.push_back(Saver.save("@" + F).data());
      }
      Found = true;
    }
    if (!Found)
      break;
    if (Round == MaxDepth)
      return Error = "options files nest more than " + std::to_string(MaxDepth) + " deep", std::nullopt;
    Argv = std::move(Next);
  }
  return std::vector<std::string>(Argv.begin(), Argv.end());
}

} // namespace irregfix::nvcc
