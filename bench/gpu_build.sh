# Sourced by the one-command GPU checks (bench/lanes_check.sh, bench/warp_rows_check.sh):
#   gpu_build BUILD_DIR TARGET...
# configures BUILD_DIR (Release, CUDA_ARCH or 90) and builds the targets. Where there is no Clang, the
# rewritten sources come from .devgen/ (scripts/pregenerate.sh), and GoogleTest from .devgen/googletest
# when the system has none.
gpu_build() {
  build=$1
  shift
  config="-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCH:-90} -DIRREGFIX_BUILD_TIDY_PLUGIN=OFF"
  if ! command -v clang++-19 >/dev/null 2>&1; then
    config="$config -DIRREGFIX_BUILD_TOOL=OFF -DIRREGFIX_REWRITTEN_DIR=$PWD/.devgen"
    if [ -d .devgen/googletest ] && [ ! -e /usr/lib/x86_64-linux-gnu/libgtest.a ]; then
      cmake -S .devgen/googletest -B "$build/googletest-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DBUILD_GMOCK=OFF -DCMAKE_INSTALL_PREFIX="$build/googletest-install" >/dev/null
      cmake --build "$build/googletest-build" --target install >/dev/null
      config="$config -DCMAKE_PREFIX_PATH=$build/googletest-install"
    fi
  fi
  # shellcheck disable=SC2086
  cmake -S . -B "$build" -G Ninja $config >/dev/null
  cmake --build "$build" --target "$@"
}
