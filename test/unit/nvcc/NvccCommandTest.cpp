// nvcc command lines as irregfix-nvcc reads them: inputs, phase, the Clang
// flags for the tool's parse, options files.
#include "nvcc/NvccCommand.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace irregfix::nvcc;
using Strings = std::vector<std::string>;

namespace {

NvccCommand read(Strings Args) { return readNvccCommand(std::move(Args)); }

Strings cudaInputs(const NvccCommand &C) {
  Strings Out;
  for (const Input &In : C.Inputs)
    if (In.IsCuda)
      Out.push_back(In.Path);
  return Out;
}

TEST(NvccCommand, PreprocessorFlagsInEverySpelling) {
  NvccCommand C = read({"-c", "k.cu", "-Iinc", "-I", "a,b", "-I=c", "--include-path", "d", "--include-path=e",
                        "-DX=1", "-D", "Y", "--define-macro=Z,W=2", "-UQ", "--undefine-macro", "R",
                        "-isystem", "sys", "--system-include=sys2", "-include", "pre.h", "--pre-include=p2.h",
                        "-std=c++17", "-o", "k.o"});
  EXPECT_EQ(C.ToolFlags, (Strings{"-Iinc", "-Ia", "-Ib", "-Ic", "-Id", "-Ie", "-DX=1", "-DY", "-DZ", "-DW=2", "-UQ",
                                  "-UR", "-isystem", "sys", "-isystem", "sys2", "-include", "pre.h", "-include",
                                  "p2.h", "-std=c++17"}));
  EXPECT_EQ(C.UnknownOption, "");
  EXPECT_EQ(cudaInputs(C), Strings{"k.cu"});
  EXPECT_EQ(C.OutputFile, "k.o");
}

TEST(NvccCommand, HostCompilerPreprocessorFlagsComeFirst) {
  // nvcc hands -Xcompiler's flags to the preprocessor before its own -I and -D.
  NvccCommand C = read({"-c", "k.cu", "-Iinc", "-Xcompiler", "-Wall,-DHOST=1,-I,hinc", "--compiler-options=-fPIC",
                        "-Xcompiler=-isystem,hsys,-O3", "-Xcompiler", "-DLIST=a\\,b"});
  EXPECT_EQ(C.ToolFlags, (Strings{"-DHOST=1", "-I", "hinc", "-isystem", "hsys", "-DLIST=a,b", "-Iinc"}));
  EXPECT_EQ(C.UnknownOption, "");
}

TEST(NvccCommand, ValuesAreNotInputs) {
  NvccCommand C = read({"-o", "x.cu", "-arch", "sm_90", "-ccbin", "g++", "-MF", "k.d", "-MT", "t.cu", "-x", "cu",
                        "main.cpp", "-Xptxas", "-v", "-l", "cusparse", "-O", "3", "-gencode",
                        "arch=compute_90,code=sm_90", "-rdc", "true", "obj.o"});
  ASSERT_EQ(C.Inputs.size(), 2u);
  EXPECT_EQ(C.Inputs[0].Path, "main.cpp");
  EXPECT_EQ(C.Inputs[0].ArgIndex, 12u);
  EXPECT_EQ(cudaInputs(C), Strings{"main.cpp"}); // -x cu makes a C++ source CUDA
  EXPECT_EQ(C.DependencyFile, "k.d");
  EXPECT_EQ(C.UnknownOption, "");
  EXPECT_TRUE(C.links());
}

TEST(NvccCommand, LanguageDecidesWhatIsCuda) {
  EXPECT_EQ(cudaInputs(read({"-c", "a.cu", "b.cpp"})), Strings{"a.cu"});
  EXPECT_EQ(cudaInputs(read({"-c", "a.cu", "b.cpp", "-x", "cu"})), (Strings{"a.cu", "b.cpp"}));
  EXPECT_EQ(cudaInputs(read({"-c", "a.cu", "--x=c++"})), Strings{});
  EXPECT_EQ(cudaInputs(read({"-x", "cu", "a.o", "-", "b.c"})), Strings{"b.c"});
}

TEST(NvccCommand, Phases) {
  EXPECT_EQ(read({"a.cu", "-o", "a"}).CompilePhase, Phase::Link);
  EXPECT_TRUE(read({"a.o", "b.o", "-o", "a", "-lcusparse"}).links());
  EXPECT_TRUE(read({"a.o", "-link"}).links());
  EXPECT_TRUE(read({"a.cu", "-run"}).links());
  for (const char *Compile : {"-c", "--compile", "-dc", "--device-c", "-dw", "-lib", "-cuda"}) {
    NvccCommand C = read({Compile, "a.cu"});
    EXPECT_EQ(C.CompilePhase, Phase::Compile) << Compile;
    EXPECT_FALSE(C.links()) << Compile;
    EXPECT_TRUE(C.compilesHostCode()) << Compile;
  }
  for (const char *NoHost : {"-E", "-M", "-MM", "--generate-dependencies", "-ptx", "-cubin", "-fatbin", "-dlink",
                             "-ltoir", "-optix-ir", "-fdevice-syntax-only"}) {
    NvccCommand C = read({NoHost, "a.cu"});
    EXPECT_EQ(C.CompilePhase, Phase::NoHostCode) << NoHost;
    EXPECT_FALSE(C.compilesHostCode()) << NoHost;
  }
  for (const char *Info : {"--version", "-V", "--help", "-dryrun", "--list-gpu-arch", "-clean"})
    EXPECT_EQ(read({Info, "a.cu"}).CompilePhase, Phase::NothingCompiled) << Info;
  // -MD compiles too.
  NvccCommand MD = read({"-c", "a.cu", "-MD", "-MF", "a.d"});
  EXPECT_EQ(MD.CompilePhase, Phase::Compile);
  EXPECT_TRUE(MD.DependenciesWithCompile);
  // Nothing to link.
  EXPECT_FALSE(read({"--version"}).links());
}

TEST(NvccCommand, UnknownOptions) {
  EXPECT_EQ(read({"-c", "a.cu", "-Wall", "-fPIC"}).UnknownOption, "-Wall");
  EXPECT_EQ(read({"-c", "a.cu", "-ofoo.o"}).UnknownOption, "-ofoo.o"); // nvcc wants -o foo.o
  EXPECT_EQ(read({"-c", "a.cu", "-o"}).UnknownOption, "-o");           // a value is missing
  EXPECT_EQ(read({"-c", "a.cu", "--c"}).UnknownOption, "--c");         // one-letter names take one dash
  EXPECT_EQ(read({"-c", "a.cu", "-g=1"}).UnknownOption, "-g=1");       // no value for -g
  // Forwarded to the host compiler: its preprocessor flags count, the rest are not unknown.
  NvccCommand F = read({"-forward-unknown-to-host-compiler", "-c", "a.cu", "-Wall", "-DA", "-iquoteq"});
  EXPECT_EQ(F.UnknownOption, "");
  EXPECT_EQ(F.ToolFlags, (Strings{"-iquoteq", "-DA"}));
}

TEST(NvccCommand, AttachedValuesOnlyForOneLetterOptions) {
  NvccCommand C = read({"-c", "a.cu", "-lcusparse", "-L/opt/lib", "-O3", "-t4", "-lineinfo", "-ldir", "d", "-lib"});
  EXPECT_EQ(C.UnknownOption, "");
  EXPECT_EQ(C.Inputs.size(), 1u);
  EXPECT_EQ(read({"-c", "a.cu", "-isystemdir"}).UnknownOption, "-isystemdir");
  EXPECT_EQ(read({"-c", "a.cu", "-xcu"}).UnknownOption, "-xcu");
}

class OptionsFiles : public ::testing::Test {
protected:
  // Options files are read from the working directory: one of the test's own.
  void SetUp() override {
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
    llvm::sys::path::append(Dir, "irregfix-nvcc-optf");
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory(Dir, Dir));
    ASSERT_FALSE(llvm::sys::fs::current_path(Before));
    ASSERT_FALSE(llvm::sys::fs::set_current_path(Dir));
  }
  void TearDown() override {
    llvm::sys::fs::set_current_path(Before);
    llvm::sys::fs::remove_directories(Dir);
  }
  void write(const char *Name, const char *Text) {
    std::error_code EC;
    llvm::raw_fd_ostream(Name, EC) << Text;
    ASSERT_FALSE(EC);
  }
  llvm::SmallString<128> Dir, Before;
};

TEST_F(OptionsFiles, NvccsAndGccsSpellings) {
  write("flags.txt", "-DA=1 \"-DB=two words\"\n-I inc\n-optf more.txt\n");
  write("more.txt", "-DC\n");
  write("objects.rsp", "a.cu b.o\n");
  std::string Error;
  auto Args = expandOptionsFiles({"-c", "-optf", "flags.txt", "@objects.rsp", "--options-file=more.txt"}, Error);
  ASSERT_TRUE(Args) << Error;
  EXPECT_EQ(*Args, (Strings{"-c", "-DA=1", "-DB=two words", "-I", "inc", "-DC", "a.cu", "b.o", "-DC"}));
}

TEST_F(OptionsFiles, MissingOrEndless) {
  std::string Error;
  EXPECT_FALSE(expandOptionsFiles({"-c", "-optf", "missing.txt"}, Error));
  EXPECT_NE(Error.find("missing.txt"), std::string::npos);
  write("loop.txt", "-optf loop.txt\n");
  EXPECT_FALSE(expandOptionsFiles({"-optf", "loop.txt"}, Error));
  // Without options files nothing changes.
  auto Same = expandOptionsFiles({"-c", "a.cu", "-DX"}, Error);
  ASSERT_TRUE(Same);
  EXPECT_EQ(*Same, (Strings{"-c", "a.cu", "-DX"}));
}

} // namespace
