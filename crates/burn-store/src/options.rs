//! `LoadOptions`: how file keys are matched to parameters when loading.

use crate::KeyRemapper;

/// How a load matches the tensors of a file to the parameters of a module.
///
/// By default every parameter must be found ([`allow_partial`](Self::allow_partial) is off),
/// tensors no parameter uses are allowed and reported in
/// [`ApplyResult::unused`](crate::ApplyResult::unused), and keys are used as stored.
///
/// ```
/// use burn_store::{KeyRemapper, LoadOptions};
/// let options = LoadOptions::new()
///     .with_remapper(KeyRemapper::new().prefix("model.", ""))
///     .allow_unused(false);
/// assert!(!options.allows_partial() && !options.allows_unused());
/// ```
#[derive(Clone, Debug)]
pub struct LoadOptions {
    remapper: KeyRemapper,
    allow_partial: bool,
    allow_unused: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            remapper: KeyRemapper::new(),
            allow_partial: false,
            allow_unused: true,
        }
    }
}

impl LoadOptions {
    /// The defaults: every parameter required, unused tensors allowed, no remapping.
    pub fn new() -> Self {
        Self::default()
    }

    /// Rewrites file keys with `remapper` before matching them to module paths.
    pub fn with_remapper(mut self, remapper: KeyRemapper) -> Self {
        self.remapper = remapper;
        self
    }

    /// Whether parameters without a tensor are allowed: they keep their values (lazy ones
    /// stay lazy) and are listed in [`ApplyResult::missing`](crate::ApplyResult::missing).
    /// Off by default: a missing tensor is a [`StoreError::MissingKey`](crate::StoreError).
    pub fn allow_partial(mut self, allow: bool) -> Self {
        self.allow_partial = allow;
        self
    }

    /// Whether tensors that match no parameter are allowed (on by default; they are listed in
    /// [`ApplyResult::unused`](crate::ApplyResult::unused)). When off they are a
    /// [`StoreError::UnusedKeys`](crate::StoreError).
    pub fn allow_unused(mut self, allow: bool) -> Self {
        self.allow_unused = allow;
        self
    }

    /// The key remapper.
    pub fn remapper(&self) -> &KeyRemapper {
        &self.remapper
    }

    /// Whether parameters without a tensor are allowed.
    pub fn allows_partial(&self) -> bool {
        self.allow_partial
    }

    /// Whether tensors matching no parameter are allowed.
    pub fn allows_unused(&self) -> bool {
        self.allow_unused
    }
}
