"""Writes a .cu file whose kernel and launch hold comma chains of N operands (ASTs N deep).
Comma chains: Clang's own checks take linear time on them (a chain of `- 0` takes quadratic)."""
import sys

n = int(sys.argv[1])
chain = ", t" * n
sys.stdout.write(f"""#include <cuda_runtime.h>
__global__ void k(int n, const int *B, const float *A, float *y) {{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {{
    float s = 0;
    for (int k = B[t]; k < B[t + 1]; ++k)
      s += A[k] * (k{chain}, k);
    y[t] = s + A[B[(t{chain}, t)]];
  }}
}}
void run(int n, const int *B, const float *A, float *y) {{ int t = 0; k<<<n / 128 + 1, 128>>>((n{chain}, n), B, A, y); }}
""")
