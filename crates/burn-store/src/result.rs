//! `ApplyResult`: what a load did.

use core::fmt;

/// What a successful load did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApplyResult {
    /// The module paths of the parameters that were loaded, in visiting order.
    pub applied: Vec<String>,
    /// The module paths of the parameters without a tensor, which kept their values (only
    /// with [`LoadOptions::allow_partial`](crate::LoadOptions::allow_partial); otherwise
    /// a missing tensor fails the load).
    pub missing: Vec<String>,
    /// The keys of the file's tensors that matched no parameter, as stored in the file
    /// (before remapping), sorted.
    pub unused: Vec<String>,
}

impl ApplyResult {
    /// Whether every parameter was loaded and every tensor was used.
    pub fn is_exact(&self) -> bool {
        self.missing.is_empty() && self.unused.is_empty()
    }
}

impl fmt::Display for ApplyResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} parameters loaded, {} missing, {} unused tensors",
            self.applied.len(),
            self.missing.len(),
            self.unused.len()
        )?;
        for (what, keys) in [("missing", &self.missing), ("unused", &self.unused)] {
            if !keys.is_empty() {
                write!(f, "\n  {what}: {}", keys.join(", "))?;
            }
        }
        Ok(())
    }
}
