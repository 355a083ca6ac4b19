//! Improved Perlin noise against an independent, literal transcription of Ken Perlin's Java
//! reference `ImprovedNoise` (https://mrl.cs.nyu.edu/~perlin/noise/, 2002), at fixed points that
//! include negative coordinates and integer lattice planes (to 1e-9 in f64); plus continuity
//! across cell borders and the [-1, 1] range.

// (3.14, 42, 7) is the reference's own test point, not π; the transcription keeps the Java
// loops as they are.
#![allow(clippy::approx_constant, clippy::manual_memcpy)]

use sierra_terrain::noise::{perlin2, perlin3, Fbm, FbmParams, Permutation};

/// `ImprovedNoise.java`, transcribed line by line (its own copy of the table).
mod improved_noise {
    pub fn noise(mut x: f64, mut y: f64, mut z: f64) -> f64 {
        let p = table();
        let xx = (x.floor() as i32 & 255) as usize; // FIND UNIT CUBE THAT
        let yy = (y.floor() as i32 & 255) as usize; // CONTAINS POINT.
        let zz = (z.floor() as i32 & 255) as usize;
        x -= x.floor(); // FIND RELATIVE X,Y,Z
        y -= y.floor(); // OF POINT IN CUBE.
        z -= z.floor();
        let u = fade(x); // COMPUTE FADE CURVES
        let v = fade(y); // FOR EACH OF X,Y,Z.
        let w = fade(z);
        let a = p[xx] + yy; // HASH COORDINATES OF
        let aa = p[a] + zz; // THE 8 CUBE CORNERS,
        let ab = p[a + 1] + zz;
        let b = p[xx + 1] + yy;
        let ba = p[b] + zz;
        let bb = p[b + 1] + zz;
        lerp(
            w,
            lerp(
                v,
                lerp(u, grad(p[aa], x, y, z), grad(p[ba], x - 1.0, y, z)),
                lerp(
                    u,
                    grad(p[ab], x, y - 1.0, z),
                    grad(p[bb], x - 1.0, y - 1.0, z),
                ),
            ),
            lerp(
                v,
                lerp(
                    u,
                    grad(p[aa + 1], x, y, z - 1.0),
                    grad(p[ba + 1], x - 1.0, y, z - 1.0),
                ),
                lerp(
                    u,
                    grad(p[ab + 1], x, y - 1.0, z - 1.0),
                    grad(p[bb + 1], x - 1.0, y - 1.0, z - 1.0),
                ),
            ),
        )
    }
    fn fade(t: f64) -> f64 {
        t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
    }
    fn lerp(t: f64, a: f64, b: f64) -> f64 {
        a + t * (b - a)
    }
    fn grad(hash: usize, x: f64, y: f64, z: f64) -> f64 {
        let h = hash & 15; // CONVERT LO 4 BITS OF HASH CODE
        let u = if h < 8 { x } else { y }; // INTO 12 GRADIENT DIRECTIONS.
        let v = if h < 4 {
            y
        } else if h == 12 || h == 14 {
            x
        } else {
            z
        };
        (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
    }
    const PERMUTATION: [usize; 256] = [
        151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30,
        69, 142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94,
        252, 219, 203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171,
        168, 68, 175, 74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60,
        211, 133, 230, 220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1,
        216, 80, 73, 209, 76, 132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86,
        164, 100, 109, 198, 173, 186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118,
        126, 255, 82, 85, 212, 207, 206, 59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170,
        213, 119, 248, 152, 2, 44, 154, 163, 70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39,
        253, 19, 98, 108, 110, 79, 113, 224, 232, 178, 185, 112, 104, 218, 246, 97, 228, 251, 34,
        242, 193, 238, 210, 144, 12, 191, 179, 162, 241, 81, 51, 145, 235, 249, 14, 239, 107, 49,
        192, 214, 31, 181, 199, 106, 157, 184, 84, 204, 176, 115, 121, 50, 45, 127, 4, 150, 254,
        138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141, 128, 195, 78, 66, 215, 61, 156, 180,
    ];
    fn table() -> [usize; 512] {
        // static { for (int i=0; i < 256 ; i++) p[256+i] = p[i] = permutation[i]; }
        let mut p = [0; 512];
        for i in 0..256 {
            p[i] = PERMUTATION[i];
            p[256 + i] = PERMUTATION[i];
        }
        p
    }
}

/// Fixed points: generic, negative, on integer lattice planes (x, y and/or z integer), near
/// cell borders, and beyond the 256 period.
const POINTS: &[[f64; 3]] = &[
    [3.14, 42.0, 7.0],
    [0.5, 0.5, 0.5],
    [-0.5, -0.5, -0.5],
    [-3.7, 12.25, -100.1],
    [1.0, 2.5, 3.25],
    [-7.0, 0.3, 0.6],
    [0.3, -4.0, 0.6],
    [0.3, 0.6, -9.0],
    [5.0, 6.0, 0.75],
    [-1e-9, 1e-9, 0.999999999],
    [255.5, -255.5, 256.25],
    [1000.123, -2000.456, 3000.789],
    [-0.0001, 17.9999, -33.5],
    [123.456, 78.9, -0.001],
];

#[test]
fn matches_perlins_reference_implementation_in_f64() {
    let p = Permutation::reference();
    assert_eq!(improved_noise::noise(3.14, 42.0, 7.0), 0.13691995878400012);
    for &[x, y, z] in POINTS {
        let expected = improved_noise::noise(x, y, z);
        let got = perlin3(&p, x, y, z);
        assert!(
            (got - expected).abs() <= 1e-9,
            "({x}, {y}, {z}): {got} vs {expected}"
        );
        let got2 = perlin2(&p, x, y);
        let expected2 = improved_noise::noise(x, y, 0.0);
        assert!((got2 - expected2).abs() <= 1e-9, "perlin2({x}, {y})");
    }
    // And on a dense sweep.
    for i in 0..20_000 {
        let t = i as f64;
        let (x, y, z) = (
            t * 0.0731 - 700.0,
            t * -0.0417 + 13.0,
            (t * 0.013).sin() * 300.0,
        );
        assert!((perlin3(&p, x, y, z) - improved_noise::noise(x, y, z)).abs() <= 1e-9);
    }
}

#[test]
fn lattice_planes_and_points() {
    let p = Permutation::reference();
    // On every lattice point the noise is exactly 0 (all corner offsets vanish there).
    for [x, y, z] in [[0.0, 0.0, 0.0], [-3.0, 4.0, 255.0], [17.0, -256.0, 1.0]] {
        assert_eq!(perlin3(&p, x, y, z), 0.0);
        assert_eq!(improved_noise::noise(x, y, z), 0.0);
    }
}

#[test]
fn continuous_across_cell_borders() {
    // Approaching an integer plane from both sides gives the same value (C2 fade), for f64 and
    // f32, in all three axes and at negative coordinates.
    for perm in [Permutation::reference(), Permutation::from_seed(99)] {
        for k in -20..20 {
            let c = k as f64 + 0.0;
            for axis in 0..3 {
                let mut lo = [0.37, -5.61, 2.83];
                let mut hi = lo;
                lo[axis] = c - 1e-7;
                hi[axis] = c + 1e-7;
                let a = perlin3(&perm, lo[0], lo[1], lo[2]);
                let b = perlin3(&perm, hi[0], hi[1], hi[2]);
                assert!((a - b).abs() < 1e-5, "jump at {c} axis {axis}: {a} {b}");
                let a = perlin3(&perm, lo[0] as f32, lo[1] as f32, lo[2] as f32);
                let b = perlin3(&perm, hi[0] as f32, hi[1] as f32, hi[2] as f32);
                assert!((a - b).abs() < 1e-4, "f32 jump at {c} axis {axis}: {a} {b}");
            }
        }
    }
}

#[test]
fn range_is_within_minus_one_one() {
    let perm = Permutation::reference();
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for i in 0..200_000u32 {
        let t = f64::from(i);
        let v = perlin3(
            &perm,
            t * 0.1234567 - 999.0,
            (t * 0.00731).sin() * 50.0,
            t * 0.0789 % 31.0,
        );
        lo = lo.min(v);
        hi = hi.max(v);
    }
    assert!(lo >= -1.0 && hi <= 1.0, "{lo} {hi}");
    // The range is genuinely used (not a scaled-down variant).
    assert!(lo < -0.6 && hi > 0.6, "{lo} {hi}");
    // fBm stays within its amplitude bound.
    let fbm = Fbm::new(FbmParams::default()).unwrap();
    let bound = fbm.amplitude_bound();
    for i in 0..5000 {
        let t = f64::from(i);
        assert!(fbm.fbm3(&perm, t * 0.37, -t * 0.11, t * 0.05).abs() <= bound);
    }
}

#[test]
fn f32_path_tracks_f64_reference() {
    let p = Permutation::reference();
    for &[x, y, z] in POINTS.iter().filter(|p| p.iter().all(|v| v.abs() < 300.0)) {
        let a = perlin3(&p, x as f32, y as f32, z as f32);
        let b = improved_noise::noise(
            f64::from(x as f32),
            f64::from(y as f32),
            f64::from(z as f32),
        );
        assert!((f64::from(a) - b).abs() < 1e-5, "{a} {b}");
    }
}
