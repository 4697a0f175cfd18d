// Particles as structures read through a neighbour list (Gravit's Body, 32
// bytes, of which the force kernel reads x, y, z and mass): the remap and the
// kernel with the copy split into field pieces (one 16-byte piece) against the
// copy of whole structures and against the original kernel reading in place.
//
//   irregfix_fields_bench [particles] [neighbours] [window] [reps]
//
// Neighbours are drawn at random within `window` particles of each one (as
// after a spatial sort). Remaps are timed as refreshes after a write to the
// bodies: before each timed run the bodies are overwritten from one of three
// generated sets (rotated) and the write announced (irregfix_invalidate).
// Times are medians of CUDA event pairs after a warm-up. The three kernels do
// the same arithmetic in the same order; their results are compared bit for bit.
#include "bench_support.cuh"

#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include <cstring>
#include <random>
#include <string>

namespace {

struct Body { float x, y, z, mass, vx, vy, vz; int kind; };
// What the tool declares for a site reading x, y, z, mass of Body.
struct alignas(16) BodyPiece { float x, y, z, mass; };

const irregfix::FieldPiece kPieces[1] = {{sizeof(BodyPiece), 4,
                                          {{offsetof(Body, x), offsetof(BodyPiece, x), 4},
                                           {offsetof(Body, y), offsetof(BodyPiece, y), 4},
                                           {offsetof(Body, z), offsetof(BodyPiece, z), 4},
                                           {offsetof(Body, mass), offsetof(BodyPiece, mass), 4}}}};

// The same interaction in all three kernels.
__device__ __forceinline__ void interact(float px, float py, float pz, float qx, float qy, float qz, float qm,
                                         float3 &a) {
  const float dx = qx - px, dy = qy - py, dz = qz - pz;
  const float r2 = dx * dx + dy * dy + dz * dz + 1e-3f;
  const float inv = rsqrtf(r2);
  const float s = qm * inv * inv * inv;
  a.x += dx * s;
  a.y += dy * s;
  a.z += dz * s;
}

__global__ void forces_original(int n, int m, const int *__restrict__ nb, const Body *__restrict__ bodies,
                                float3 *__restrict__ acc) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const float px = bodies[t].x, py = bodies[t].y, pz = bodies[t].z;
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (int j = 0; j < m; ++j) {
    const int q = nb[j * n + t];
    interact(px, py, pz, bodies[q].x, bodies[q].y, bodies[q].z, bodies[q].mass, a);
  }
  acc[t] = a;
}

// As the tool rewrites the kernel for a whole copy ...
__global__ void forces_whole(int n, int m, const Body *__restrict__ bodies, float3 *__restrict__ acc, irregfix::View v,
                             const Body *__restrict__ copy) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const float px = bodies[t].x, py = bodies[t].y, pz = bodies[t].z;
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (int j = 0; j < m; ++j) {
    const long long s = irregfix::slot(v, t, j);
    interact(px, py, pz, copy[s].x, copy[s].y, copy[s].z, copy[s].mass, a);
  }
  acc[t] = a;
}

// ... and for the copy of the fields it reads.
__global__ void forces_pieces(int n, int m, const Body *__restrict__ bodies, float3 *__restrict__ acc,
                              irregfix::View v, const BodyPiece *__restrict__ piece0) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const float px = bodies[t].x, py = bodies[t].y, pz = bodies[t].z;
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (int j = 0; j < m; ++j) {
    const long long s = irregfix::slot(v, t, j);
    interact(px, py, pz, piece0[s].x, piece0[s].y, piece0[s].z, piece0[s].mass, a);
  }
  acc[t] = a;
}

std::vector<Body> random_bodies(int n, unsigned seed) {
  std::mt19937 r(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<Body> b(n);
  for (int i = 0; i < n; ++i)
    b[i] = Body{u(r), u(r), u(r), 0.5f + 0.5f * u(r), u(r), u(r), u(r), static_cast<int>(r() % 4)};
  return b;
}

} // namespace

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 18;
  const int m = argc > 2 ? std::atoi(argv[2]) : 32;
  const int window = argc > 3 ? std::atoi(argv[3]) : 4096;
  const int reps = argc > 4 ? std::atoi(argv[4]) : 21;
  if (n <= 0 || m <= 0 || window <= 0 || reps <= 0) {
    std::fprintf(stderr, "usage: %s [particles] [neighbours] [window] [reps]\n", argv[0]);
    return 2;
  }
  irregfix::testing::set_layout(irregfix::kLayoutEllColMajor); // the copies under test, never the selector's choice

  std::mt19937 r(1);
  std::vector<int> nb(static_cast<size_t>(n) * m);
  for (int t = 0; t < n; ++t)
    for (int j = 0; j < m; ++j) {
      const int q = t - window / 2 + static_cast<int>(r() % window);
      nb[static_cast<size_t>(j) * n + t] = ((q % n) + n) % n;
    }
  Body *bodies = nullptr, *sets[3] = {};
  int *d_nb = nullptr;
  float3 *acc[3] = {};
  CK(cudaMalloc(&bodies, sizeof(Body) * n));
  for (int s = 0; s < 3; ++s) {
    CK(cudaMalloc(&sets[s], sizeof(Body) * n));
    const std::vector<Body> h = random_bodies(n, 10 + s);
    CK(cudaMemcpy(sets[s], h.data(), sizeof(Body) * n, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&acc[s], sizeof(float3) * n));
  }
  CK(cudaMemcpy(bodies, sets[0], sizeof(Body) * n, cudaMemcpyDeviceToDevice));
  CK(cudaMalloc(&d_nb, sizeof(int) * nb.size()));
  CK(cudaMemcpy(d_nb, nb.data(), sizeof(int) * nb.size(), cudaMemcpyHostToDevice));

  const irregfix::SiteInfo whole_site{"fields_bench:whole", "forces", "neighbors"};
  const irregfix::SiteInfo pieces_site{"fields_bench:pieces", "forces", "neighbors"};
  irregfix::View vw{}, vp{};
  const void *whole_out[1] = {}, *pieces_out[1] = {};
  auto prepare_whole = [&] {
    if (!irregfix::prepare_neighbors(whole_site, d_nb, irregfix::kIndexI32, n, 1, m, nullptr, irregfix::kIndexI32, n,
                                     bodies, sizeof(Body), &vw, whole_out, 0)) {
      std::fprintf(stderr, "whole copy declined: %s\n",
                   irregfix::testing::site_counters(whole_site.id).last_fallback.c_str());
      std::exit(1);
    }
  };
  auto prepare_pieces = [&] {
    if (!irregfix::prepare_neighbors_fields(pieces_site, d_nb, irregfix::kIndexI32, n, 1, m, nullptr,
                                            irregfix::kIndexI32, n, bodies, sizeof(Body), 1, kPieces, &vp, pieces_out,
                                            0)) {
      std::fprintf(stderr, "field pieces declined: %s\n",
                   irregfix::testing::site_counters(pieces_site.id).last_fallback.c_str());
      std::exit(1);
    }
  };
  // Before each timed remap: new bodies (one of the three sets, rotated), announced.
  auto new_bodies = [&](int i) {
    CK(cudaMemcpy(bodies, sets[(i + 1) % 3], sizeof(Body) * n, cudaMemcpyDeviceToDevice));
    irregfix_invalidate(bodies);
    CK(cudaDeviceSynchronize());
  };
  const unsigned grid = static_cast<unsigned>((n + 255) / 256);
  auto run_original = [&] { forces_original<<<grid, 256>>>(n, m, d_nb, bodies, acc[0]); };
  auto run_whole = [&] {
    forces_whole<<<grid, 256>>>(n, m, bodies, acc[1], vw, static_cast<const Body *>(whole_out[0]));
  };
  auto run_pieces = [&] {
    forces_pieces<<<grid, 256>>>(n, m, bodies, acc[2], vp, static_cast<const BodyPiece *>(pieces_out[0]));
  };

  const float remap_whole = median_ms(prepare_whole, reps, new_bodies);
  const float remap_pieces = median_ms(prepare_pieces, reps, new_bodies);
  const auto cw = irregfix::testing::site_counters(whole_site.id);
  const auto cp = irregfix::testing::site_counters(pieces_site.id);
  const double bytes_whole = cw.remaps ? static_cast<double>(cw.bytes_remapped) / cw.remaps : 0;
  const double bytes_pieces = cp.remaps ? static_cast<double>(cp.bytes_remapped) / cp.remaps : 0;

  // Kernels on the copies of the same bodies.
  new_bodies(0);
  prepare_whole();
  prepare_pieces();
  CK(cudaDeviceSynchronize());
  const float k_original = median_ms(run_original, reps);
  const float k_whole = median_ms(run_whole, reps);
  const float k_pieces = median_ms(run_pieces, reps);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float3> h[3];
  for (int s = 0; s < 3; ++s) {
    h[s].resize(n);
    CK(cudaMemcpy(h[s].data(), acc[s], sizeof(float3) * n, cudaMemcpyDeviceToHost));
  }
  const bool same = std::memcmp(h[0].data(), h[1].data(), sizeof(float3) * n) == 0 &&
                    std::memcmp(h[0].data(), h[2].data(), sizeof(float3) * n) == 0;

  std::printf("fields_bench: %d particles, %d neighbours each (window %d), Body %zu bytes, piece %zu bytes, %d reps\n",
              n, m, window, sizeof(Body), sizeof(BodyPiece), reps);
  std::printf("%-8s %14s %12s %12s %14s\n", "copy", "remap_MB", "remap_ms", "kernel_ms", "remap+kernel");
  std::printf("%-8s %14s %12s %12.4f %14.4f\n", "original", "-", "-", k_original, k_original);
  std::printf("%-8s %14.1f %12.4f %12.4f %14.4f\n", "whole", bytes_whole / 1e6, remap_whole, k_whole,
              remap_whole + k_whole);
  std::printf("%-8s %14.1f %12.4f %12.4f %14.4f\n", "pieces", bytes_pieces / 1e6, remap_pieces, k_pieces,
              remap_pieces + k_pieces);
  std::printf("remap speedup, pieces over whole: %.2fx; kernel speedup: %.2fx; results bit-identical: %s\n",
              remap_whole / remap_pieces, k_whole / k_pieces, same ? "yes" : "NO");
  for (int s = 0; s < 3; ++s) {
    CK(cudaFree(sets[s]));
    CK(cudaFree(acc[s]));
  }
  irregfix_release(bodies);
  irregfix_release(d_nb);
  CK(cudaFree(bodies));
  CK(cudaFree(d_nb));
  return same ? 0 : 1;
}
