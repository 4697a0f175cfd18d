"""Writes a long .cu file: N kernels (CSR, gathers, refused ones) and a host function launching each."""
import sys

n = int(sys.argv[1])
out = ["#include <cuda_runtime.h>", ""]
for i in range(n):
    kind = i % 4
    if kind == 0:
        out += [f"__global__ void csr{i}(int n, const int *B, const float *A, float *y) {{",
                "  int t = blockIdx.x * blockDim.x + threadIdx.x;",
                "  if (t < n) {", "    float s = 0;",
                "    for (int k = B[t]; k < B[t + 1]; ++k)", "      s += A[k];",
                "    y[t] = s;", "  }", "}"]
    elif kind == 1:
        out += [f"__global__ void gather{i}(int n, const int *B, const float *A, float *y) {{",
                "  int t = blockIdx.x * blockDim.x + threadIdx.x;",
                "  if (t < n)", "    y[t] = A[B[t]] * 2.0f;", "}"]
    elif kind == 2:
        out += [f"__global__ void refused{i}(int n, const int *B, float *A) {{",
                "  int t = blockIdx.x * blockDim.x + threadIdx.x;",
                "  if (t < n) {", "    for (int k = B[t]; k < B[t + 1]; ++k)", "      A[k] += 1.0f;", "  }", "}"]
    else:
        out += [f"__global__ void plain{i}(int n, const float *x, float *y) {{",
                "  int t = blockIdx.x * blockDim.x + threadIdx.x;",
                "  if (t < n)", "    y[t] = 2.0f * x[t];", "}"]
    out += ["", "// " + "padding " * 8] * 3
out += ["void run_all(int n, const int *B, float *A, const float *x, float *y) {"]
for i in range(n):
    kind = i % 4
    name = ["csr", "gather", "refused", "plain"][kind]
    args = ["n, B, A, y", "n, B, A, y", "n, B, A", "n, x, y"][kind]
    out.append(f"  {name}{i}<<<(n + 255) / 256, 256>>>({args});")
out.append("}")
sys.stdout.write("\n".join(out) + "\n")
