# lit configuration for irregfix's rewrite, diagnostic, refusal and CLI tests.
import glob
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "irregfix"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs", "unit", "gpu", "cmake", "channels", "indexed"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.irregfix_obj_root, "test")

inputs = os.path.join(config.test_source_root, "Inputs")
# %irregfix_real uses the real CUDA installation, %irregfix_nvcc is the drop-in
# for nvcc. They come first: lit substitutes in order, and %irregfix is a prefix
# of both.
config.substitutions.append(("%irregfix_real", config.irregfix_tool))
config.substitutions.append(("%irregfix_nvcc", config.irregfix_nvcc))
# %irregfix parses against the stub CUDA header; %stub are the compiler flags it needs.
config.substitutions.append(("%irregfix", f"{config.irregfix_tool} --cuda-path={inputs}/CUDA"))
config.substitutions.append(("%stub", f"-nocudainc -nocudalib -isystem {inputs}/CUDA/include"))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%python", sys.executable))

config.environment["PATH"] = os.pathsep.join([config.llvm_tools_dir, config.environment.get("PATH", "")])
# Remarks and errors are checked as plain text.
config.environment["TERM"] = "dumb"

if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
    runtime_include = os.path.join(config.irregfix_src_root, "runtime", "include")
    config.substitutions.append(
        ("%nvcc", f"{config.nvcc} -std=c++17 -arch=sm_{config.cuda_architecture} -I {runtime_include}"))
    config.substitutions.append(("%runtime_lib", config.runtime_library))
    config.substitutions.append(("%real_nvcc", config.nvcc))

# The runtime library, which irregfix-nvcc adds where nvcc links.
if config.runtime_library and os.path.exists(config.runtime_library):
    config.available_features.add("irregfix-runtime")


def has_cuda_device():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20)
        return out.returncode == 0 and "GPU" in out.stdout
    except (OSError, subprocess.SubprocessError):
        return False


# The host compiler's omp.h (GCC's internal include directory), which the
# tool's parse finds as nvcc's host compiler does.
if glob.glob("/usr/lib/gcc/*/*/include/omp.h") or glob.glob("/usr/lib64/gcc/*/*/include/omp.h"):
    config.available_features.add("host-omp-header")

if has_cuda_device():
    config.available_features.add("cuda-device")


# clang-apply-replacements (Debian: clang-tools-19) applies --export-fixes YAML.
apply_replacements = shutil.which("clang-apply-replacements", path=config.llvm_tools_dir) or shutil.which(
    "clang-apply-replacements-19")
if apply_replacements:
    config.available_features.add("clang-apply-replacements")
    config.substitutions.append(("%clang_apply_replacements", apply_replacements))

# The clang-tidy plugin, loaded into the clang-tidy of the same LLVM;
# %tidy_cuda are the CUDA flags the tool would add, for the stub header.
if config.clang_tidy and config.tidy_plugin and os.path.exists(config.clang_tidy):
    config.available_features.add("clang-tidy-plugin")
    config.substitutions.append(("%clang_tidy", f"{config.clang_tidy} --load={config.tidy_plugin}"))
    config.substitutions.append(("%tidy_plugin", config.tidy_plugin))
    config.substitutions.append(
        ("%tidy_cuda", f"-x cuda --cuda-host-only --cuda-path={inputs}/CUDA -nocudainc -nocudalib "
                       f"-isystem {inputs}/CUDA/include"))
