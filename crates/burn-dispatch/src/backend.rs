//! The catalog expanded: `Dispatch`, `DispatchDevice`, `DispatchTensor` and their routing, plus
//! the recording entry of graph capture (`crate::capture`).

/// `define_dispatch!` over the catalog's entries, with the recording entry added.
macro_rules! define_dispatch_with_capture {
    ($d:tt $($entry:tt)*) => {
        $crate::define_dispatch!(
            $d $($entry)*
            ; recording [Capture, $crate::capture::Capture, $crate::capture::adopt, $crate::capture::CaptureDevice::base]
        );
    };
}
pub(crate) use define_dispatch_with_capture;

burn_backend_extension::backend_catalog!(crate::backend::define_dispatch_with_capture);

// The stub test loads the same op files a second time, on purpose.
#[allow(clippy::duplicate_mod)]
#[path = "ops/mod.rs"]
mod ops;

#[cfg(feature = "autodiff")]
pub use ops::AutodiffDevice;
