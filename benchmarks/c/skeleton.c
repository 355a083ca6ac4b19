/* Sierra's C baseline for the animation job's matrix stages (run by `sierra bench anim`,
 * `sierra bench propagation` and `sierra bench report`; written for this project).
 *
 * Work per character, on the skeleton of Sierra's anchor workload (68 joints, chains of six
 * hanging from the first chains: the parent rule of `sierra_anim::synthetic::skeleton`):
 *   1. each joint's local transform (translation, unit quaternion, scale) to an affine matrix
 *      (the standard quaternion-to-matrix formula),
 *   2. local-to-model: model[j] = model[parent[j]] * local[j], the root's parent the identity,
 *   3. the skinning palette: palette[j] = model[j] * inverse_bind[j]
 *      (left out with `--no-skin`).
 * Matrices are column-major 4x4 floats; the products are written as columns of four-lane GCC
 * vectors (what a C programmer writes for this: gcc -O3 -march=native turns them into SSE/AVX
 * multiply-adds). Characters are split over threads with OpenMP, static schedule.
 *
 * Usage: skeleton [CHARACTERS=1000] [--no-skin] [--threads 1,2] [--reps 20]
 * Prints, per thread count, the fastest of `reps` passes over all characters:
 *   skeleton characters=1000 joints=68 threads=1: 573.1 ns/character, 8.43 ns/joint (...)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <omp.h>

#define JOINTS 68

typedef float v4 __attribute__((vector_size(16)));
typedef struct { v4 col[4]; } mat4;
typedef struct { float t[3], q[4], s[3]; } trs;

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* a * b for column-major a, b: column j of the product is a times column j of b. */
static inline mat4 mat4_mul(const mat4 *a, const mat4 *b) {
    mat4 r;
    for (int j = 0; j < 4; j++) {
        v4 c = b->col[j];
        r.col[j] = a->col[0] * c[0] + a->col[1] * c[1] + a->col[2] * c[2] + a->col[3] * c[3];
    }
    return r;
}

/* T * R * S as a matrix. */
static inline mat4 trs_matrix(const trs *p) {
    float x = p->q[0], y = p->q[1], z = p->q[2], w = p->q[3];
    float xx = 2 * x * x, yy = 2 * y * y, zz = 2 * z * z;
    float xy = 2 * x * y, xz = 2 * x * z, yz = 2 * y * z;
    float wx = 2 * w * x, wy = 2 * w * y, wz = 2 * w * z;
    mat4 m;
    m.col[0] = (v4){1 - yy - zz, xy + wz, xz - wy, 0} * p->s[0];
    m.col[1] = (v4){xy - wz, 1 - xx - zz, yz + wx, 0} * p->s[1];
    m.col[2] = (v4){xz + wy, yz - wx, 1 - xx - yy, 0} * p->s[2];
    m.col[3] = (v4){p->t[0], p->t[1], p->t[2], 1};
    return m;
}

static int parent_of(int j) {
    if (j == 0) return -1;
    if (j % 6 == 0) return (j / 6 - 1) * 2 % j;
    return j - 1;
}

static void character(const int *parent, const trs *local, const mat4 *inverse_bind,
                      mat4 *model, mat4 *palette, int skin) {
    model[0] = trs_matrix(&local[0]);
    for (int j = 1; j < JOINTS; j++) {
        mat4 l = trs_matrix(&local[j]);
        model[j] = mat4_mul(&model[parent[j]], &l);
    }
    if (skin)
        for (int j = 0; j < JOINTS; j++) palette[j] = mat4_mul(&model[j], &inverse_bind[j]);
}

int main(int argc, char **argv) {
    int characters = 1000, skin = 1, reps = 20, threads[8] = {1, 2}, thread_counts = 2;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--no-skin")) skin = 0;
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--threads") && a + 1 < argc) {
            thread_counts = 0;
            for (char *s = strtok(argv[++a], ","); s && thread_counts < 8; s = strtok(NULL, ","))
                threads[thread_counts++] = atoi(s);
        } else characters = atoi(argv[a]);
    }
    if (characters < 1 || reps < 1) {
        fprintf(stderr, "usage: skeleton [CHARACTERS] [--no-skin] [--threads 1,2] [--reps N]\n");
        return 2;
    }
    int parent[JOINTS];
    for (int j = 0; j < JOINTS; j++) parent[j] = parent_of(j);
    size_t n = (size_t)characters * JOINTS;
    trs *local = aligned_alloc(64, sizeof(trs) * n);
    mat4 *model = aligned_alloc(64, sizeof(mat4) * n);
    mat4 *palette = aligned_alloc(64, sizeof(mat4) * n);
    mat4 inverse_bind[JOINTS];
    if (!local || !model || !palette) return 1;
    for (size_t i = 0; i < n; i++) {
        float a = 0.37f * (float)(i % 997), b = 0.11f * (float)(i % 89);
        float q[4] = {sinf(a) * 0.3f, cosf(b) * 0.2f, sinf(b) * 0.1f, 1.0f};
        float inv = 1.0f / sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        local[i] = (trs){{0.0f, 0.1f, 0.002f * sinf(a)}, {q[0] * inv, q[1] * inv, q[2] * inv, q[3] * inv}, {1, 1, 1}};
    }
    for (int j = 0; j < JOINTS; j++) {
        trs bind = {{0.0f, -0.1f * (float)j, 0.0f}, {0, 0, 0, 1}, {1, 1, 1}};
        inverse_bind[j] = trs_matrix(&bind);
    }
    memset(model, 0, sizeof(mat4) * n);
    memset(palette, 0, sizeof(mat4) * n);
    for (int t = 0; t < thread_counts; t++) {
        double best = 1e30;
        for (int r = 0; r <= reps; r++) { /* pass 0 warms up */
            double start = seconds();
#pragma omp parallel for num_threads(threads[t]) schedule(static)
            for (int c = 0; c < characters; c++)
                character(parent, local + (size_t)c * JOINTS, inverse_bind, model + (size_t)c * JOINTS,
                          palette + (size_t)c * JOINTS, skin);
            double dt = seconds() - start;
            if (r > 0 && dt < best) best = dt;
        }
        printf("skeleton characters=%d joints=%d threads=%d: %.1f ns/character, %.3f ns/joint (%s)\n",
               characters, JOINTS, threads[t], best * 1e9 / characters, best * 1e9 / (double)n,
               skin ? "TRS->matrix + local-to-model + palette" : "TRS->matrix + local-to-model");
    }
    volatile float sink = palette[n - 1].col[3][1] + model[n - 1].col[3][0];
    (void)sink;
    return 0;
}
