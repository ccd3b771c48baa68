//! The x86-64 vector instruction sets Flex's hand-written kernels are compiled for, and which
//! of them this CPU runs (detected at run time).

/// Which vector instruction set a kernel runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Isa {
    /// AVX-512F: one 16-lane register per vector.
    Avx512,
    /// AVX2 with FMA: two 8-lane registers per vector.
    Avx2,
}

impl Isa {
    /// Every set, widest first.
    const ALL: [Isa; 2] = [Isa::Avx512, Isa::Avx2];

    /// Whether this CPU runs the set (never off x86-64).
    fn runs(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match self {
                Isa::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
                Isa::Avx2 => {
                    std::arch::is_x86_feature_detected!("avx2")
                        && std::arch::is_x86_feature_detected!("fma")
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = self;
            false
        }
    }

    /// The widest set this CPU runs, if any.
    pub(crate) fn detect() -> Option<Isa> {
        Isa::ALL.into_iter().find(|isa| isa.runs())
    }

    /// Every set this CPU runs, widest first (the tests exercise each).
    pub(crate) fn available() -> Vec<Isa> {
        Isa::ALL.into_iter().filter(|isa| isa.runs()).collect()
    }
}
