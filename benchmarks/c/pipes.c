/* Sierra's C baseline for the water columns (run by `sierra bench water` and `sierra bench
 * report`; written for this project). Plain scalar C, gcc -O3 -march=native, OpenMP over rows.
 *
 * One step of the virtual-pipes model (Mei, Decaudin & Hu, "Fast Hydraulic Erosion Simulation
 * and Visualization on GPU", PG 2007, eq. 2-5; Sierra's `WaterSim::step` does the same work
 * per cell): with h = terrain + depth,
 *   flux pass : f = max(0, f * damp + k * (h - h_neighbour)) for the four pipes, then all four
 *               scaled by K = min(1, depth * area / (sum f * dt)),
 *   depth pass: depth += dt / area * (inflow - outflow), clamped at 0, and the largest depth kept
 *               (the next step's stability limit).
 * Closed edges: a missing neighbour has infinite height, so no pipe leaves the grid. State is
 * structure of arrays, double-buffered (old flux and depth read, new written), two passes over
 * the grid per step; rows are split over threads with a static schedule.
 *
 * Usage: pipes [SIDE=1024] [--threads 1,2] [--steps 30]
 * Prints per thread count the fastest step, and the water volume (a check that steps ran).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <omp.h>

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct { float *l, *r, *t, *b; } flux;

static float *alloc_floats(size_t n) {
    float *v = aligned_alloc(64, ((n * sizeof(float) + 63) / 64) * 64);
    if (!v) exit(1);
    memset(v, 0, n * sizeof(float));
    return v;
}

static flux alloc_flux(size_t n) {
    flux f = {alloc_floats(n), alloc_floats(n), alloc_floats(n), alloc_floats(n)};
    return f;
}

int main(int argc, char **argv) {
    int side = 1024, steps = 30, threads[8] = {1, 2}, thread_counts = 2;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--steps") && a + 1 < argc) steps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--threads") && a + 1 < argc) {
            thread_counts = 0;
            for (char *s = strtok(argv[++a], ","); s && thread_counts < 8; s = strtok(NULL, ","))
                threads[thread_counts++] = atoi(s);
        } else side = atoi(argv[a]);
    }
    if (side < 2 || steps < 1) {
        fprintf(stderr, "usage: pipes [SIDE] [--threads 1,2] [--steps N]\n");
        return 2;
    }
    const int w = side, hgt = side;
    const size_t n = (size_t)w * hgt;
    float *terrain = alloc_floats(n), *depth[2] = {alloc_floats(n), alloc_floats(n)};
    flux f[2] = {alloc_flux(n), alloc_flux(n)};
    /* A 1 m pool with a sinc bump in the middle (Sierra's `Init::Bump`), flat ground. */
    for (int y = 0; y < hgt; y++)
        for (int x = 0; x < w; x++) {
            float dx = x - 0.5f * w, dy = y - 0.5f * hgt, r = 0.3f * sqrtf(dx * dx + dy * dy);
            depth[0][(size_t)y * w + x] = 1.0f + 0.5f * (r > 0 ? sinf(r) / r : 1.0f);
        }
    const float g = 9.81f, area = 1.0f, dt = 0.9f * 1.0f / (4.0f * sqrtf(g * 1.5f));
    const float k = dt * 1.0f * g / 1.0f, damp = 1.0f, dt_over_area = dt / area;
    int cur = 0;
    for (int t = 0; t < thread_counts; t++) {
        double best = 1e30;
        for (int s = 0; s <= steps; s++) { /* step 0 warms up */
            const float *d = depth[cur], *b = terrain;
            float *dn = depth[1 - cur];
            const flux o = f[cur], nf = f[1 - cur];
            float max_depth = 0;
            double t0 = seconds();
#pragma omp parallel num_threads(threads[t])
            {
#pragma omp for schedule(static)
                for (int y = 0; y < hgt; y++)
                    for (int x = 0; x < w; x++) {
                        size_t i = (size_t)y * w + x;
                        float h = b[i] + d[i];
                        float hl = x > 0 ? b[i - 1] + d[i - 1] : INFINITY;
                        float hr = x < w - 1 ? b[i + 1] + d[i + 1] : INFINITY;
                        float ht = y > 0 ? b[i - w] + d[i - w] : INFINITY;
                        float hb = y < hgt - 1 ? b[i + w] + d[i + w] : INFINITY;
                        float fl = fmaxf(0, o.l[i] * damp + k * (h - hl));
                        float fr = fmaxf(0, o.r[i] * damp + k * (h - hr));
                        float ft = fmaxf(0, o.t[i] * damp + k * (h - ht));
                        float fb = fmaxf(0, o.b[i] * damp + k * (h - hb));
                        float out = (fl + fr + ft + fb) * dt, held = d[i] * area;
                        float scale = out > held ? held / out : 1.0f;
                        nf.l[i] = fl * scale; nf.r[i] = fr * scale; nf.t[i] = ft * scale; nf.b[i] = fb * scale;
                    }
#pragma omp for schedule(static) reduction(max : max_depth)
                for (int y = 0; y < hgt; y++)
                    for (int x = 0; x < w; x++) {
                        size_t i = (size_t)y * w + x;
                        float in = (x > 0 ? nf.r[i - 1] : 0) + (x < w - 1 ? nf.l[i + 1] : 0) +
                                   (y > 0 ? nf.b[i - w] : 0) + (y < hgt - 1 ? nf.t[i + w] : 0);
                        float out = nf.l[i] + nf.r[i] + nf.t[i] + nf.b[i];
                        float v = fmaxf(0, d[i] + (in - out) * dt_over_area);
                        dn[i] = v;
                        max_depth = fmaxf(max_depth, v);
                    }
            }
            double elapsed = seconds() - t0;
            if (s > 0 && elapsed < best) best = elapsed;
            cur = 1 - cur;
            if (!(max_depth > 0)) return 1;
        }
        printf("pipes %dx%d threads=%d: %.3f ms/step, %.3f ns/cell\n", w, hgt, threads[t], best * 1e3,
               best * 1e9 / (double)n);
    }
    double volume = 0;
    for (size_t i = 0; i < n; i++) volume += depth[cur][i];
    printf("water volume %.6e m^3\n", volume * area);
    return 0;
}
