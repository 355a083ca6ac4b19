//! Eight `f32` lanes ([`F8`]) for the structure-of-arrays jobs, and run-time dispatch.
//!
//! The lane operations are plain per-lane loops over `[f32; 8]` that LLVM vectorises: one
//! `ymm` register with AVX2 or AVX-512VL, two `xmm` registers on the SSE2 baseline, scalar
//! code elsewhere. Every operation is a correctly rounded IEEE-754 operation (`+ − × ÷ √`,
//! compares, selects; Rust never fuses a multiply and an add on its own), so every dispatch
//! path — and the scalar reference code, which performs the same operations in the same
//! order — gives bit-identical results on every CPU.

use std::ops::{Add, Div, Mul, Neg, Sub};

/// Lanes per SoA block: joints 8·b .. 8·b + 8 live in block `b`.
pub const LANES: usize = 8;

/// Eight `f32` lanes, 32-byte aligned.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub struct F8(pub [f32; LANES]);

impl Default for F8 {
    fn default() -> Self {
        Self::ZERO
    }
}

impl F8 {
    /// All lanes 0.
    pub const ZERO: Self = Self([0.0; LANES]);
    /// All lanes 1.
    pub const ONE: Self = Self([1.0; LANES]);

    /// All lanes `v`.
    #[inline(always)]
    pub const fn splat(v: f32) -> Self {
        Self([v; LANES])
    }

    /// Lane `i` = `f(i)`.
    #[inline(always)]
    pub fn from_fn(mut f: impl FnMut(usize) -> f32) -> Self {
        let mut r = [0.0; LANES];
        for (i, x) in r.iter_mut().enumerate() {
            *x = f(i);
        }
        Self(r)
    }

    /// Lane-wise `f(self, other)`.
    #[inline(always)]
    pub fn zip(self, other: Self, f: impl Fn(f32, f32) -> f32) -> Self {
        Self::from_fn(|i| f(self.0[i], other.0[i]))
    }

    /// Lane-wise `f(self)`.
    #[inline(always)]
    pub fn map(self, f: impl Fn(f32) -> f32) -> Self {
        Self::from_fn(|i| f(self.0[i]))
    }

    /// Per lane: `if cond(self) { a } else { b }`.
    #[inline(always)]
    pub fn select(self, cond: impl Fn(f32) -> bool, a: Self, b: Self) -> Self {
        Self::from_fn(|i| if cond(self.0[i]) { a.0[i] } else { b.0[i] })
    }

    /// Lane-wise square root (IEEE, correctly rounded).
    #[inline(always)]
    pub fn sqrt(self) -> Self {
        self.map(f32::sqrt)
    }

    /// Lane-wise maximum with `0`, as `f32::max(x, 0.0)`.
    #[inline(always)]
    pub fn max0(self) -> Self {
        self.map(|x| x.max(0.0))
    }
}

macro_rules! lane_op {
    ($trait:ident, $fn:ident, $op:tt) => {
        impl $trait for F8 {
            type Output = F8;
            #[inline(always)]
            fn $fn(self, o: F8) -> F8 {
                self.zip(o, |a, b| a $op b)
            }
        }
        impl $trait<f32> for F8 {
            type Output = F8;
            #[inline(always)]
            fn $fn(self, o: f32) -> F8 {
                self.map(|a| a $op o)
            }
        }
    };
}
lane_op!(Add, add, +);
lane_op!(Sub, sub, -);
lane_op!(Mul, mul, *);
lane_op!(Div, div, /);

impl Neg for F8 {
    type Output = F8;
    #[inline(always)]
    fn neg(self) -> F8 {
        self.map(|a| -a)
    }
}

/// Which instruction set the SoA kernels run with on this CPU (detected at run time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdLevel {
    /// AVX-512 F + VL (32 vector registers).
    Avx512,
    /// AVX2 + FMA.
    Avx2,
    /// The compile-time baseline (SSE2 on x86-64, or another architecture).
    Portable,
}

impl SimdLevel {
    /// The best level this CPU supports.
    #[inline]
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512vl")
            {
                return Self::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                return Self::Avx2;
            }
        }
        Self::Portable
    }
}

impl SimdLevel {
    /// `self`, or the best level below it that this CPU supports (so a level asked for by a
    /// caller can never run instructions the CPU lacks).
    #[inline]
    pub fn supported(self) -> Self {
        let best = Self::detect();
        match (self, best) {
            (Self::Portable, _) | (_, Self::Portable) => Self::Portable,
            (Self::Avx2, _) | (_, Self::Avx2) => Self::Avx2,
            _ => Self::Avx512,
        }
    }
}

/// Defines `$name(level, args…)` running the `#[inline(always)]` kernel `$kernel(args…)`
/// compiled for AVX-512, AVX2 or the baseline (the same operations, so the same bits).
/// `$name` may take type parameters (`fn f<A: Bound, B: Bound>(…)`), each bound one path;
/// the three compiled copies are then generic too, so one definition serves every
/// combination of sampler types.
macro_rules! dispatch {
    ($(#[$m:meta])* $vis:vis fn $name:ident $(<$($g:ident: $bound:path),+>)? ($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? => $kernel:path) => {
        $(#[$m])*
        $vis fn $name $(<$($g: $bound),+>)? (level: $crate::simd::SimdLevel, $($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512vl,avx2,fma")]
                unsafe fn avx512 $(<$($g: $bound),+>)? ($($arg: $ty),*) $(-> $ret)? { $kernel($($arg),*) }
                #[target_feature(enable = "avx2,fma")]
                unsafe fn avx2 $(<$($g: $bound),+>)? ($($arg: $ty),*) $(-> $ret)? { $kernel($($arg),*) }
                match level.supported() {
                    // SAFETY: `supported` checked these features on this CPU.
                    $crate::simd::SimdLevel::Avx512 => return unsafe { avx512($($arg),*) },
                    $crate::simd::SimdLevel::Avx2 => return unsafe { avx2($($arg),*) },
                    $crate::simd::SimdLevel::Portable => {}
                }
            }
            // Other architectures have only the portable kernel (wasm32: the web build).
            #[cfg(not(target_arch = "x86_64"))]
            let _ = level;
            #[allow(unreachable_code)]
            $kernel($($arg),*)
        }
    };
}
pub(crate) use dispatch;
