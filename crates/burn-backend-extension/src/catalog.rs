//! The catalog: the one list of executing backends.
//!
//! Each entry names the `DispatchDevice` / `DispatchTensor` variant, the backend type, and the
//! cargo feature of `burn-dispatch` that compiles it. `burn-dispatch` expands this list (through
//! `backend_catalog!`) into its enums and routing; `#[backend_extension]` reads it too.
//! Adding a backend = one entry here + the backend crate behind that feature.

/// One executing backend.
#[derive(Clone)]
pub struct CatalogEntry {
    /// The variant name in `DispatchDevice` and `DispatchTensor`.
    pub variant: &'static str,
    /// The path of the backend type, from `burn-dispatch`.
    pub backend: &'static str,
    /// The feature of `burn-dispatch` that compiles this backend.
    pub feature: &'static str,
    /// Other names of the same backend type (`Wgpu` = `Cube`): not selectors of
    /// `#[backend_extension]`, whose error points to the entry instead.
    pub aliases: &'static [&'static str],
}

/// The executing backends, in order of preference for the default device.
///
/// Flex comes first: like PyTorch, the default device is the CPU; accelerators are asked for by
/// name (`Device::wgpu(..)`, `Device::cuda(..)`) or with `BURN_DEVICE=cube`.
pub const CATALOG: &[CatalogEntry] = &[
    CatalogEntry {
        variant: "Flex",
        backend: "::burn_flex::Flex",
        feature: "flex",
        aliases: &[],
    },
    CatalogEntry {
        variant: "Cube",
        backend: "::burn_cubecl::Cube",
        feature: "cube",
        aliases: &[
            "Wgpu",
            "Vulkan",
            "Metal",
            "WebGpu",
            "Cuda",
            "Rocm",
            "Cpu",
            "CubeBackend",
        ],
    },
];

/// The catalog with one more entry (`Capture`), as adding a backend would make it: the tests
/// check that routing and selectors follow it with no other list edited.
#[cfg(test)]
pub(crate) fn extended_catalog() -> Vec<CatalogEntry> {
    let mut entries = CATALOG.to_vec();
    entries.push(CatalogEntry {
        variant: "Capture",
        backend: "::burn_capture::Capture",
        feature: "capture",
        aliases: &[],
    });
    entries
}
