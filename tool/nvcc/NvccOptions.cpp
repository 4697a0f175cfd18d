#include "NvccOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace irregfix::nvcc {

namespace {

using K = OptionKind;

// Every option of `nvcc --help` (CUDA 13.0): long name, short name, whether it
// takes a value, and what it means to the wrapper.
constexpr OptionSpec Options[] = {
    // The phase: how far the inputs are compiled.
    {"cuda", "cuda", false, K::StopsBeforeLink},
    {"cubin", "cubin", false, K::NoHostCode},
    {"fatbin", "fatbin", false, K::NoHostCode},
    {"ptx", "ptx", false, K::NoHostCode},
    {"optix-ir", "optix-ir", false, K::NoHostCode},
    {"ltoir", "ltoir", false, K::NoHostCode},
    {"preprocess", "E", false, K::NoHostCode},
    {"generate-dependencies", "M", false, K::NoHostCode},
    {"generate-nonsystem-dependencies", "MM", false, K::NoHostCode},
    {"generate-dependencies-with-compile", "MD", false, K::DependencyWithCompile},
    {"generate-nonsystem-dependencies-with-compile", "MMD", false, K::DependencyWithCompile},
    {"dependency-output", "MF", true, K::DependencyOutput},
    {"generate-dependency-targets", "MP", false, K::Other},
    {"compile", "c", false, K::StopsBeforeLink},
    {"device-c", "dc", false, K::StopsBeforeLink},
    {"device-w", "dw", false, K::StopsBeforeLink},
    {"device-link", "dlink", false, K::NoHostCode},
    {"link", "link", false, K::Links},
    {"lib", "lib", false, K::StopsBeforeLink},
    {"run", "run", false, K::Links},
    {"fdevice-syntax-only", "fdevice-syntax-only", false, K::NoHostCode},
    // Files and paths.
    {"output-file", "o", true, K::Output},
    {"pre-include", "include", true, K::PreInclude},
    {"objdir-as-tempdir", "objtemp", false, K::Other},
    {"library", "l", true, K::Other},
    {"define-macro", "D", true, K::Define},
    {"undefine-macro", "U", true, K::Undefine},
    {"include-path", "I", true, K::IncludePath},
    {"system-include", "isystem", true, K::SystemInclude},
    {"library-path", "L", true, K::Other},
    {"output-directory", "odir", true, K::Other},
    {"compiler-bindir", "ccbin", true, K::Other},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", false, K::Other},
    {"archiver-binary", "arbin", true, K::Other},
    {"cudart", "cudart", true, K::Other},
    {"cudadevrt", "cudadevrt", true, K::Other},
    {"libdevice-directory", "ldir", true, K::Other},
    {"target-directory", "target-dir", true, K::Other},
    {"use-local-env", "use-local-env", false, K::Other},
    {"force-cl-env-setup", "force-cl-env-setup", false, K::Other},
    // Code generation.
    {"profile", "pg", false, K::Other},
    {"debug", "g", false, K::Other},
    {"device-debug", "G", false, K::Other},
    {"generate-line-info", "lineinfo", false, K::Other},
    {"optimization-info", "opt-info", true, K::Other},
    {"optimize", "O", true, K::Other},
    {"Ofast-compile", "Ofc", true, K::Other},
    {"dopt", "dopt", true, K::Other},
    {"dlink-time-opt", "dlto", false, K::Other},
    {"lto", "lto", false, K::Other},
    {"gen-opt-lto", "gen-opt-lto", false, K::Other},
    {"ftemplate-backtrace-limit", "ftemplate-backtrace-limit", true, K::Other},
    {"ftemplate-depth", "ftemplate-depth", true, K::Other},
    {"no-exceptions", "noeh", false, K::Other},
    {"shared", "shared", false, K::Other},
    {"x", "x", true, K::Language},
    {"std", "std", true, K::Standard},
    {"no-host-device-initializer-list", "nohdinitlist", false, K::Other},
    {"no-host-device-move-forward", "nohdmoveforward", false, K::Other},
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", false, K::Other},
    {"extended-lambda", "extended-lambda", false, K::Other},
    {"expt-extended-lambda", "expt-extended-lambda", false, K::Other},
    {"machine", "m", true, K::Other},
    {"m64", "m64", false, K::Other},
    // Options for the tools nvcc runs.
    {"compiler-options", "Xcompiler", true, K::HostCompiler},
    {"linker-options", "Xlinker", true, K::Other},
    {"archive-options", "Xarchive", true, K::Other},
    {"ptxas-options", "Xptxas", true, K::Other},
    {"nvlink-options", "Xnvlink", true, K::Other},
    {"static-global-template-stub", "static-global-template-stub", true, K::Other},
    {"device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility", true, K::Other},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler", false, K::ForwardUnknown},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", false, K::Other},
    {"forward-unknown-opts", "forward-unknown-opts", false, K::ForwardUnknown},
    {"dont-use-profile", "noprof", false, K::Other},
    // The driver's own behaviour.
    {"dryrun", "dryrun", false, K::Informational},
    {"verbose", "v", false, K::Other},
    {"threads", "t", true, K::Other},
    {"split-compile", "split-compile", true, K::Other},
    {"split-compile-extended", "split-compile-extended", true, K::Other},
    {"fdevice-time-trace", "fdevice-time-trace", true, K::Other},
    {"keep", "keep", false, K::Other},
    {"keep-dir", "keep-dir", true, K::Other},
    {"save-temps", "save-temps", false, K::Other},
    {"clean-targets", "clean", false, K::Informational},
    {"time", "time", true, K::Other},
    {"run-args", "run-args", true, K::Other},
    {"input-drive-prefix", "idp", true, K::Other},
    {"dependency-drive-prefix", "ddp", true, K::Other},
    {"drive-prefix", "dp", true, K::Other},
    {"dependency-target-name", "MT", true, K::Other},
    {"no-align-double", "", false, K::Other},
    {"no-device-link", "nodlink", false, K::Other},
    // GPU code.
    {"gpu-architecture", "arch", true, K::Other},
    {"gpu-code", "code", true, K::Other},
    {"generate-code", "gencode", true, K::Other},
    {"relocatable-device-code", "rdc", true, K::Other},
    {"entries", "e", true, K::Other},
    {"maxrregcount", "maxrregcount", true, K::Other},
    {"use_fast_math", "use_fast_math", false, K::Other},
    {"ftz", "ftz", true, K::Other},
    {"prec-div", "prec-div", true, K::Other},
    {"prec-sqrt", "prec-sqrt", true, K::Other},
    {"fmad", "fmad", true, K::Other},
    {"extra-device-vectorization", "extra-device-vectorization", false, K::Other},
    {"default-stream", "default-stream", true, K::Other},
    {"disable-warnings", "w", false, K::Other},
    {"keep-device-functions", "keep-device-functions", false, K::Other},
    {"source-in-ptx", "src-in-ptx", false, K::Other},
    {"restrict", "restrict", false, K::Other},
    {"Wreorder", "Wreorder", false, K::Other},
    {"Wdefault-stream-launch", "Wdefault-stream-launch", false, K::Other},
    {"Wmissing-launch-bounds", "Wmissing-launch-bounds", false, K::Other},
    {"Wext-lambda-captures-this", "Wext-lambda-captures-this", false, K::Other},
    {"Wno-deprecated-declarations", "Wno-deprecated-declarations", false, K::Other},
    {"Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", false, K::Other},
    {"Werror", "Werror", true, K::Other},
    {"resource-usage", "res-usage", false, K::Other},
    {"extensible-whole-program", "ewp", false, K::Other},
    {"no-compress", "no-compress", false, K::Other},
    {"qpp-config", "qpp-config", true, K::Other},
    {"compile-as-tools-patch", "astoolspatch", false, K::Other},
    {"list-gpu-code", "code-ls", false, K::Informational},
    {"list-gpu-arch", "arch-ls", false, K::Informational},
    {"display-error-number", "err-no", false, K::Other},
    {"no-display-error-number", "no-err-no", false, K::Other},
    {"diag-error", "diag-error", true, K::Other},
    {"diag-suppress", "diag-suppress", true, K::Other},
    {"diag-warn", "diag-warn", true, K::Other},
    {"host-linker-script", "hls", true, K::Other},
    {"augment-host-linker-script", "aug-hls", false, K::Other},
    {"relocatable-link", "r", false, K::Other},
    {"brief-diagnostics", "brief-diag", true, K::Other},
    {"jump-table-density", "jtd", true, K::Other},
    {"relocatable-ptx", "reloc-ptx", false, K::Other},
    {"device-stack-protector", "device-stack-protector", true, K::Other},
    {"compress-mode", "compress-mode", true, K::Other},
    {"frandom-seed", "frandom-seed", true, K::Other},
    {"sanitize", "sanitize", true, K::Other},
    {"jobserver", "jobserver", false, K::Other},
    {"help", "h", false, K::Informational},
    {"version", "V", false, K::Informational},
    {"options-file", "optf", true, K::OptionsFile},
};

// One-letter options whose value may follow without a space or `=` (`-Idir`);
// nvcc refuses it for the others (`-ofile`).
constexpr llvm::StringLiteral AttachedValue = "IDULlOt";

const OptionSpec *find(llvm::StringRef Name, bool Long) {
  for (const OptionSpec &O : Options)
    if (Name == (Long ? O.Long : O.Short) && !Name.empty())
      return &O;
  return nullptr;
}

} // namespace

std::optional<OptionMatch> matchOption(llvm::StringRef Arg) {
  if (Arg.size() < 2 || Arg[0] != '-')
    return std::nullopt;
  const bool Long = Arg.starts_with("--");
  llvm::StringRef Body = Arg.drop_front(Long ? 2 : 1);
  auto [Name, Value] = Body.split('=');
  const bool HasEquals = Body.contains('=');

  if (const OptionSpec *Spec = find(Name, Long)) {
    if (!Spec->TakesValue)
      return HasEquals ? std::nullopt : std::optional<OptionMatch>(OptionMatch{Spec, "", false});
    if (HasEquals)
      return OptionMatch{Spec, Value.str(), false};
    return OptionMatch{Spec, "", true};
  }
  // `-Idir`, `-DX=1`, `-O3`: a one-letter option with its value attached.
  if (!Long && AttachedValue.contains(Body.front()))
    if (const OptionSpec *Spec = find(Body.take_front(1), false))
      return OptionMatch{Spec, Body.drop_front(1).str(), false};
  return std::nullopt;
}

void splitListValue(llvm::StringRef Value, llvm::SmallVectorImpl<std::string> &Items) {
  std::string Item;
  for (size_t I = 0; I < Value.size(); ++I) {
    if (Value[I] == '\\' && I + 1 < Value.size() && Value[I + 1] == ',') {
      Item += ',';
      ++I;
    } else if (Value[I] == ',') {
      Items.push_back(std::move(Item));
      Item.clear();
    } else {
      Item += Value[I];
    }
  }
  Items.push_back(std::move(Item));
}

} // namespace irregfix::nvcc
