//! The catalog is the only list of backends: expanding it with one extra stub entry gives a
//! `DispatchDevice` / `DispatchTensor` with that variant, and the unchanged op files route
//! through it.
//!
//! The stub reuses Flex as its backend type under another variant name, so nothing but the
//! entry differs.

// The expansion gives the stub catalog every constructor of the real one (`cube()` with the
// `cube` feature, ...); the stub tests use only their own.
#![allow(dead_code)]

burn_backend_extension::backend_catalog!(crate::define_dispatch, [Stub, ::burn_flex::Flex, "flex"]);

// The stub test loads the same op files a second time, on purpose.
// Not every query of the second copy is exercised by the stub tests.
#[allow(clippy::duplicate_mod, dead_code)]
#[path = "ops/mod.rs"]
mod ops;

#[cfg(feature = "autodiff")]
use ops::AutodiffDevice;

use burn_backend::ops::{FloatTensorOps, IntTensorOps};
use burn_backend::{Backend, DeviceOps, IntDType, TensorData, read_sync};
use burn_flex::FlexDevice;

#[test]
fn stub_entry_appears_in_the_device_enum_and_enumeration() {
    let names: Vec<&str> = DispatchDevice::compiled_defaults()
        .iter()
        .map(|d| d.backend_name())
        .collect();
    // The real catalog's compiled entries, in order, then the stub's.
    let mut expected = vec!["Flex"];
    if cfg!(feature = "cube") {
        expected.push("Cube");
    }
    expected.push("Stub");
    assert_eq!(names, expected);
}

#[test]
fn ops_route_through_the_stub_variant() {
    let device = DispatchDevice::Stub(FlexDevice);
    let lhs = Dispatch::float_from_data(TensorData::from([1.0f32, 2.0, 3.0]), &device);
    let rhs = Dispatch::float_from_data(TensorData::from([10.0f32, 20.0, 30.0]), &device);
    let sum = Dispatch::float_add(lhs, rhs);
    assert_eq!(sum.backend_name(), "Stub");
    let data = read_sync(Dispatch::float_into_data(sum)).unwrap();
    data.assert_eq(&TensorData::from([11.0f32, 22.0, 33.0]), true);
    let ints = Dispatch::int_arange(0..4, &device, IntDType::I64);
    assert_eq!(ints.backend_name(), "Stub");
    assert_eq!(Dispatch::name(&device), "flex");
    // Same backend type, another entry: its own device id, so its own settings.
    assert_ne!(device.id(), DispatchDevice::flex().id());
    assert_eq!(DispatchDevice::stub(), device);
}
