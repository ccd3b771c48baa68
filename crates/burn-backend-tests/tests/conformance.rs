//! The conformance suite (`suite/`) and the autodiff suite (`autodiff/`), compiled once and run
//! on the device `BURN_TEST_DEVICE` names (`flex-f32` when unset; see
//! `burn_backend_tests::device_under_test`):
//!
//! ```sh
//! cargo test -p burn-backend-tests --test conformance                     # Flex, f32
//! BURN_TEST_DEVICE=flex-f16 cargo test -p burn-backend-tests --test conformance suite::float
//! BURN_TEST_DEVICE=cube-f32 cargo test -p burn-backend-tests --features wgpu --test conformance
//! ```

use burn::tensor::Device;

fn device() -> Device {
    burn_backend_tests::device_under_test()
}

#[path = "suite/mod.rs"]
mod suite;

#[path = "autodiff/mod.rs"]
mod autodiff;
