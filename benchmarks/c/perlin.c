/* Sierra's C baseline for noise (run by `sierra bench noise` and `sierra bench report`;
 * written for this project). Plain scalar C, one thread, gcc -O3 -march=native.
 *
 * Improved Perlin noise (Ken Perlin, "Improving Noise", SIGGRAPH 2002: the reference
 * permutation, quintic fade, lerp a + t(b - a), the 12 cube-edge gradients) in 3D, and 2D
 * Perlin noise with eight 2D gradients (directions 22.5 + 45k degrees, length sqrt 2: Sierra's
 * `perlin2_grad8`), each written the plain way: per sample the lattice cell, hashes, gradient
 * dot products and lerps.
 *
 * Workloads (Sierra's counterparts in `sierra_terrain::noise::workloads` sample the same points):
 *   perlin3 random points : 2^21 points uniform in [0, 200)^3 (xorshift64*, seed below)
 *   perlin3 grid 128^3    : noise3(i*0.0371 + 0.5, j*0.0371 + 0.25, k*0.0371 + 0.125)
 *   perlin3 heightmap     : 1024^2, sum over 6 octaves of a*noise3(i*f + 0.5, j*f + 0.25, 0.5),
 *                           f = 0.01 * 2^o, a = 0.5^o
 *   perlin3 face fbm      : 1024^2, sum over 6 octaves of a*noise3(x*f, y*f, 0) with x = i*0.01,
 *                           y = j*0.01, f = 2^o, a = 0.5^o, evaluated on the z = 0 face only
 *                           (the 4 corners of the face: the far face's weight fade(0) is 0);
 *                           Sierra's `fbm2_grid` does this work sample for sample
 *   perlin2 grid 1024^2   : noise2(i*0.0371, j*0.0371)
 *   perlin2 fbm 1024^2    : sum over 6 octaves of a*noise2(i*f, j*f), f = 0.01 * 2^o, a = 0.5^o
 * Usage: perlin [--reps 3]
 * Prints per workload the fastest of its repeats in ns per sample and the sum of all samples
 * (so a caller can check that both sides computed the same values).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const unsigned char permutation[256] = {
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69,
    142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219,
    203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230,
    220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76,
    132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173,
    186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206,
    59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163,
    70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232,
    178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162,
    241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204,
    176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141,
    128, 195, 78, 66, 215, 61, 156, 180};
static int p[512];

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline float fade(float t) { return t * t * t * (t * (t * 6 - 15) + 10); }
static inline float lerp(float t, float a, float b) { return a + t * (b - a); }

/* The 12 cube-edge gradients of the 2002 paper, 4 of them repeated, indexed by hash & 15 (a
 * table rather than Perlin's branches, which mispredict on random hashes). */
static const float g3[16][3] = {{1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0}, {1, 0, 1}, {-1, 0, 1},
                                {1, 0, -1}, {-1, 0, -1}, {0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1},
                                {1, 1, 0}, {0, -1, 1}, {-1, 1, 0}, {0, -1, -1}};
static inline float grad3(int hash, float x, float y, float z) {
    const float *g = g3[hash & 15];
    return g[0] * x + g[1] * y + g[2] * z;
}

static inline float noise3(float x, float y, float z) {
    float fx = floorf(x), fy = floorf(y), fz = floorf(z);
    int X = (int)fx & 255, Y = (int)fy & 255, Z = (int)fz & 255;
    x -= fx; y -= fy; z -= fz;
    float u = fade(x), v = fade(y), w = fade(z);
    int a = p[X] + Y, aa = p[a] + Z, ab = p[a + 1] + Z;
    int b = p[X + 1] + Y, ba = p[b] + Z, bb = p[b + 1] + Z;
    float near = lerp(v, lerp(u, grad3(p[aa], x, y, z), grad3(p[ba], x - 1, y, z)),
                      lerp(u, grad3(p[ab], x, y - 1, z), grad3(p[bb], x - 1, y - 1, z)));
    float far = lerp(v, lerp(u, grad3(p[aa + 1], x, y, z - 1), grad3(p[ba + 1], x - 1, y, z - 1)),
                     lerp(u, grad3(p[ab + 1], x, y - 1, z - 1), grad3(p[bb + 1], x - 1, y - 1, z - 1)));
    return lerp(w, near, far);
}

/* noise3(x, y, 0) from the 4 corners of the cell's z = 0 face: with z = 0, w = fade(0) = 0 and
 * lerp(0, near, far) = near, so the far face drops out (Sierra's `perlin2`). */
static inline float noise3_face(float x, float y) {
    float fx = floorf(x), fy = floorf(y);
    int X = (int)fx & 255, Y = (int)fy & 255;
    x -= fx; y -= fy;
    float u = fade(x), v = fade(y);
    int a = p[X] + Y, aa = p[a], ab = p[a + 1];
    int b = p[X + 1] + Y, ba = p[b], bb = p[b + 1];
    return lerp(v, lerp(u, grad3(p[aa], x, y, 0), grad3(p[ba], x - 1, y, 0)),
                lerp(u, grad3(p[ab], x, y - 1, 0), grad3(p[bb], x - 1, y - 1, 0)));
}

/* Eight 2D gradients: sqrt(2) * (cos, sin) of 22.5 + 45k degrees, k = hash & 7. */
#define GA 1.30656296487637652f
#define GB 0.541196100146197f
static const float g2x[8] = {GA, GB, -GB, -GA, -GA, -GB, GB, GA};
static const float g2y[8] = {GB, GA, GA, GB, -GB, -GA, -GA, -GB};
static inline float grad2(int hash, float x, float y) { return g2x[hash & 7] * x + g2y[hash & 7] * y; }

static inline float noise2(float x, float y) {
    float fx = floorf(x), fy = floorf(y);
    int X = (int)fx & 255, Y = (int)fy & 255;
    x -= fx; y -= fy;
    float u = fade(x), v = fade(y);
    int a = p[X] + Y, b = p[X + 1] + Y;
    return lerp(v, lerp(u, grad2(p[a], x, y), grad2(p[b], x - 1, y)),
                lerp(u, grad2(p[a + 1], x, y - 1), grad2(p[b + 1], x - 1, y - 1)));
}

/* xorshift64*, the generator of `sierra_terrain::noise::workloads::random_points`. */
static uint64_t state = 0x9E3779B97F4A7C15ull;
static float uniform200(void) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (float)((state * 0x2545F4914F6CDD1Dull) >> 40) / (float)(1 << 24) * 200.0f;
}

static float *points_xyz;
static const int points = 1 << 21, n = 128, m = 1024;
static const float step = 0.0371f;

static double random_points3(void) {
    double s = 0;
    for (int i = 0; i < points; i++)
        s += noise3(points_xyz[3 * i], points_xyz[3 * i + 1], points_xyz[3 * i + 2]);
    return s;
}

static double grid3(void) {
    double s = 0;
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++) {
            float row = 0;
            for (int i = 0; i < n; i++) row += noise3(i * step + 0.5f, j * step + 0.25f, k * step + 0.125f);
            s += row;
        }
    return s;
}

static double heightmap3(void) {
    double s = 0;
    for (int j = 0; j < m; j++) {
        float row = 0;
        for (int i = 0; i < m; i++) {
            float f = 0.01f, a = 1, acc = 0;
            for (int o = 0; o < 6; o++) {
                acc += a * noise3(i * f + 0.5f, j * f + 0.25f, 0.5f);
                f *= 2;
                a *= 0.5f;
            }
            row += acc;
        }
        s += row;
    }
    return s;
}

static double face_fbm(void) {
    double s = 0;
    for (int j = 0; j < m; j++) {
        float row = 0, y = j * 0.01f;
        for (int i = 0; i < m; i++) {
            float x = i * 0.01f, f = 1, a = 1, acc = 0;
            for (int o = 0; o < 6; o++) {
                acc += a * noise3_face(x * f, y * f);
                f *= 2;
                a *= 0.5f;
            }
            row += acc;
        }
        s += row;
    }
    return s;
}

static double grid2(void) {
    double s = 0;
    for (int j = 0; j < m; j++) {
        float row = 0;
        for (int i = 0; i < m; i++) row += noise2(i * step, j * step);
        s += row;
    }
    return s;
}

static double fbm2(void) {
    double s = 0;
    for (int j = 0; j < m; j++) {
        float row = 0;
        for (int i = 0; i < m; i++) {
            float f = 0.01f, a = 1, acc = 0;
            for (int o = 0; o < 6; o++) {
                acc += a * noise2(i * f, j * f);
                f *= 2;
                a *= 0.5f;
            }
            row += acc;
        }
        s += row;
    }
    return s;
}

/* Fastest of `reps` runs of `work`, printed per sample with the sum of the samples. */
static void run(const char *label, int reps, double samples, double (*work)(void)) {
    double best = 1e30, sum = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = seconds();
        sum = work();
        double dt = seconds() - t0;
        if (dt < best) best = dt;
    }
    printf("%s: %.3f ns/sample, sum %.9e\n", label, best * 1e9 / samples, sum);
}

int main(int argc, char **argv) {
    int reps = 3;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else {
            fprintf(stderr, "usage: perlin [--reps N]\n");
            return 2;
        }
    }
    if (reps < 1) return 2;
    for (int i = 0; i < 256; i++) p[i] = p[i + 256] = permutation[i];
    points_xyz = malloc(sizeof(float) * 3 * points);
    if (!points_xyz) return 1;
    for (int i = 0; i < 3 * points; i++) points_xyz[i] = uniform200();
    run("perlin3 random points", reps, points, random_points3);
    run("perlin3 grid 128^3", reps, (double)n * n * n, grid3);
    run("perlin3 heightmap 1024^2 fbm 6 octaves z=0.5", reps, (double)m * m, heightmap3);
    run("perlin3 face fbm 1024^2 6 octaves z=0", reps, (double)m * m, face_fbm);
    run("perlin2 grid 1024^2", reps, (double)m * m, grid2);
    run("perlin2 fbm 1024^2 6 octaves", reps, (double)m * m, fbm2);
    free(points_xyz);
    return 0;
}
