#include "system.h"

#include "../common/splitmix.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace mdsys {
namespace {

using Rng = sample::SplitMix;

} // namespace

System make_system(int n, double density, double cell_min, double temp, bool sorted, uint64_t seed) {
  if (n < 1 || !(density > 0.0) || !(cell_min > 0.0) || !(temp >= 0.0))
    throw std::invalid_argument("make_system: bad arguments");
  System s;
  s.n = n;
  const double box = std::cbrt(static_cast<double>(n) / density);
  s.box = static_cast<float>(box);
  s.cells = static_cast<int>(std::floor(box / cell_min));
  if (s.cells < 3)
    throw std::invalid_argument("box edge " + std::to_string(box) + " holds fewer than 3 neighbour cells of " +
                                std::to_string(cell_min) + "; use more atoms (at least " +
                                std::to_string(static_cast<int>(std::ceil(27.0 * cell_min * cell_min * cell_min *
                                                                          density))) +
                                ")");
  long long m = 1;
  while (m * m * m < n) ++m;
  const double a = box / static_cast<double>(m);
  const long long sites = m * m * m;
  Rng rng(seed);

  std::vector<Atom4> p(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    long long site = static_cast<long long>(i) * sites / n; // evenly spread vacancies
    long long ix = site % m, iy = (site / m) % m, iz = site / (m * m);
    double jx = 0.1 * (rng.uniform() - 0.5), jy = 0.1 * (rng.uniform() - 0.5), jz = 0.1 * (rng.uniform() - 0.5);
    auto coord = [&](long long k, double j) {
      float c = static_cast<float>((static_cast<double>(k) + 0.5 + j) * a);
      return std::min(std::max(c, 0.0f), std::nextafter(s.box, 0.0f));
    };
    p[static_cast<size_t>(i)] = {coord(ix, jx), coord(iy, jy), coord(iz, jz), 0.0f};
  }

  // Numbering: by neighbour cell (sorted) or a random permutation.
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  if (sorted) {
    auto cell = [&](const Atom4 &q) {
      auto c1 = [&](float x) { return std::min(static_cast<int>(x / s.box * s.cells), s.cells - 1); };
      return (static_cast<long long>(c1(q.z)) * s.cells + c1(q.y)) * s.cells + c1(q.x);
    };
    std::stable_sort(order.begin(), order.end(), [&](int u, int v) {
      return cell(p[static_cast<size_t>(u)]) < cell(p[static_cast<size_t>(v)]);
    });
  } else {
    for (int i = n - 1; i > 0; --i)
      std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(rng.next() % static_cast<uint64_t>(i + 1))]);
  }
  s.pos.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) s.pos[static_cast<size_t>(i)] = p[static_cast<size_t>(order[static_cast<size_t>(i)])];

  // Velocities.
  std::vector<double> v(3 * static_cast<size_t>(n));
  double mean[3] = {0, 0, 0};
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      double x = rng.uniform() - 0.5;
      v[3 * static_cast<size_t>(i) + d] = x;
      mean[d] += x;
    }
  double sum2 = 0.0;
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      double &x = v[3 * static_cast<size_t>(i) + d];
      x -= mean[d] / n;
      sum2 += x * x;
    }
  const double scale = sum2 > 0.0 ? std::sqrt(3.0 * n * temp / sum2) : 0.0;
  s.vel.resize(static_cast<size_t>(n));
  s.kinetic = 0.0;
  for (int i = 0; i < n; ++i) {
    const size_t b = 3 * static_cast<size_t>(i);
    Atom4 q = {static_cast<float>(v[b] * scale), static_cast<float>(v[b + 1] * scale),
               static_cast<float>(v[b + 2] * scale), 0.0f};
    s.vel[static_cast<size_t>(i)] = q;
    s.kinetic += 0.5 * (static_cast<double>(q.x) * q.x + static_cast<double>(q.y) * q.y +
                        static_cast<double>(q.z) * q.z);
  }
  return s;
}

} // namespace mdsys
