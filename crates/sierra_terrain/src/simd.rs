//! Run-time choice of SIMD code paths ([`SimdPath`]).

/// The instruction sets a SIMD loop of this crate is compiled for and chosen from at run time
/// (the noise grid rows, the water step); each loop gives the same bits on every path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdPath {
    /// 16 `f32` lanes in AVX-512F registers (x86-64 CPUs with `avx512f`).
    Avx512,
    /// 8 `f32` lanes in AVX2 registers (x86-64 CPUs with `avx2`).
    Avx2,
    /// The build target's baseline instructions (SSE2 on x86-64), any CPU; the noise rows run
    /// 8 lanes as `[f32; 8]` arrays.
    Portable,
}

impl SimdPath {
    /// The fastest path this CPU supports (checked at run time with `is_x86_feature_detected!`).
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") {
                return Self::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") {
                return Self::Avx2;
            }
        }
        Self::Portable
    }

    /// Every path this CPU runs, portable first (tests compare them).
    pub fn available() -> Vec<Self> {
        [Self::Portable, Self::Avx2, Self::Avx512]
            .into_iter()
            .filter(|p| p.is_supported())
            .collect()
    }

    /// The paths the agreement tests compare, portable first: every one this CPU runs that
    /// `SIERRA_TEST_WITHOUT_SIMD` does not hide; each one left out is a `cpu-simd` skip
    /// (`sierra_testkit::skip::simd_paths`, which also prints the paths compared).
    #[cfg(test)]
    pub(crate) fn compared() -> Vec<Self> {
        let mut paths = vec![Self::Portable];
        paths.extend(sierra_testkit::skip::simd_paths([
            (Self::Avx2, "avx2", Self::Avx2.is_supported()),
            (Self::Avx512, "avx512", Self::Avx512.is_supported()),
        ]));
        paths
    }

    /// Whether this CPU can run the path.
    pub fn is_supported(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::Avx512 => std::is_x86_feature_detected!("avx512f"),
            #[cfg(target_arch = "x86_64")]
            Self::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(not(target_arch = "x86_64"))]
            Self::Avx512 | Self::Avx2 => false,
            Self::Portable => true,
        }
    }
}
