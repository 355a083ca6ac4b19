// Sierra's anchor harness for FastNoise2 (issue #43): the noise workloads of `sierra bench noise`,
// driven through FastNoise2's public API (its own run-time SIMD dispatch picks the best level the
// CPU has). Written for this project; it includes FastNoise2's headers and links its library from
// a local build (see README.md here). Not built by CI.
//
// Workloads (same sample counts and spacings as Sierra's; FastNoise2's hash and gradients differ,
// the work per sample is the same: 4 lattice corners in 2D, 8 in 3D):
//   grid3: 3D Perlin on a 128^3 grid, spacing 0.0371;
//   perlin2: 2D Perlin on a 1024^2 grid, spacing 0.01;
//   fbm2: 2D fBm of Perlin, 6 octaves (lacunarity 2, gain 0.5), 1024^2, first octave spacing 0.01.
// Usage: fastnoise2_anchor [PASSES=20]; prints "<name>: <ns> ns/sample" (fastest pass).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "FastNoise/FastNoise.h"

static double now_ns() {
  return double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now().time_since_epoch())
                    .count());
}

static double best_ns_per_sample(int passes, size_t samples, const std::function<void()>& f) {
  double best = 1e300;
  for (int p = 0; p <= passes; p++) {  // pass 0 warms up
    double s = now_ns();
    f();
    double dt = (now_ns() - s) / double(samples);
    if (p > 0) best = std::min(best, dt);
  }
  return best;
}

int main(int argc, char** argv) {
  int passes = argc > 1 ? std::atoi(argv[1]) : 20;
  if (passes < 1) {
    std::fprintf(stderr, "usage: fastnoise2_anchor [PASSES]\n");
    return 2;
  }
  auto perlin = FastNoise::New<FastNoise::Perlin>();
  auto fbm = FastNoise::New<FastNoise::FractalFBm>();
  fbm->SetSource(perlin);
  fbm->SetOctaveCount(6);
  fbm->SetGain(0.5f);
  fbm->SetLacunarity(2.0f);
  const int g = 128, m = 1024;
  std::vector<float> grid(size_t(g) * g * g), map(size_t(m) * m);
  double grid3 = best_ns_per_sample(passes, grid.size(), [&] {
    perlin->GenUniformGrid3D(grid.data(), 0.5f, 0.25f, 0.125f, g, g, g, 0.0371f, 0.0371f, 0.0371f, 1337);
  });
  double perlin2 = best_ns_per_sample(passes, map.size(), [&] {
    perlin->GenUniformGrid2D(map.data(), 0.f, 0.f, m, m, 0.01f, 0.01f, 1337);
  });
  float check2 = map[12345];
  double fbm2 = best_ns_per_sample(passes, map.size(), [&] {
    fbm->GenUniformGrid2D(map.data(), 0.f, 0.f, m, m, 0.01f, 0.01f, 1337);
  });
  std::printf("FastNoise2 SIMD level: %d\n", int(perlin->GetActiveFeatureSet()));
  std::printf("grid3: %.3f ns/sample\n", grid3);
  std::printf("perlin2: %.3f ns/sample\n", perlin2);
  std::printf("fbm2: %.3f ns/sample\n", fbm2);
  std::printf("checksum: %g %g %g\n", double(grid[777]), double(check2), double(map[12345]));
  return 0;
}
