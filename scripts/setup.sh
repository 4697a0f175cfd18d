#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test irregfix:
# Clang/LLVM 19 (libraries, lit, FileCheck, clang-tidy for the plugin's tests), GoogleTest, CMake, Ninja,
# matplotlib (the benchmark report's plots are tested).
# CUDA 13 is expected at /usr/local/cuda (or $CUDA_PATH); without it the tool
# and its tests still build, and the runtime, samples and nvcc tests are skipped.
set -euo pipefail

packages=(clang-19 clang-tools-19 clang-tidy-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev llvm-19-tools
          libgtest-dev cmake ninja-build python3 python3-matplotlib g++ make)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cuda="${CUDA_PATH:-/usr/local/cuda}"
if [ -x "$cuda/bin/nvcc" ]; then
  echo "setup: CUDA $("$cuda/bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') at $cuda"
else
  echo "setup: no CUDA at $cuda: the runtime, samples and nvcc tests will be skipped" >&2
fi
echo "setup: ready"
