// -p takes the flags from compile_commands.json (nvcc-only flags are dropped).
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %inputs/needs-define.cu %t.dir/
// RUN: sed -e "s|@DIR@|%t.dir|g" -e "s|@INPUTS@|%inputs|g" %inputs/compile_commands.json.in > %t.dir/compile_commands.json
// RUN: %irregfix --quiet -p %t.dir %t.dir/needs-define.cu | FileCheck %s
// Without the database the #error fires.
// RUN: not %irregfix --quiet %t.dir/needs-define.cu -- %stub 2>&1 | FileCheck %s --check-prefix=NODB
// CHECK: __global__ void g_irregfix(
// NODB: error: "compile with -DIRREGFIX_TEST_DEFINE
