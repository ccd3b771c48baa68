//! `#[backend_extension]` and `#[derive(ExtensionType)]` through the facade, on Flex: every
//! accepted argument and result form, and the run-time errors. (The fused example with a
//! kernel per backend is `examples/custom-op`; compile errors are in
//! `burn-backend-extension/tests/ui`.)
#![cfg(feature = "flex")]

use burn::backend::ops::{BoolTensorOps, FloatTensorOps, IntTensorOps};
use burn::backend::tensor::{BoolTensor, FloatTensor, IntTensor};
use burn::backend::{Backend, Dispatch, ExtensionType, Flex, backend_extension};
use burn::tensor::{Bool, Device, Int, IntDType, Tensor, TensorData};

/// A struct of tensors with an optional one and a plain field.
#[derive(ExtensionType, Debug)]
pub struct Affine<B: Backend> {
    scale: FloatTensor<B>,
    shift: Option<FloatTensor<B>>,
    label: &'static str,
}

/// An enum whose first variant holds no tensor.
#[derive(ExtensionType, Debug)]
pub enum Mask<B: Backend> {
    /// Keep everything.
    All,
    /// Keep where true.
    Where(BoolTensor<B>),
}

#[backend_extension(Flex)]
pub trait TestOps: Backend {
    /// `x * scale + shift`, and the label's length (a plain result in a tuple).
    fn affine(
        x: FloatTensor<Self>,
        #[extension_type] affine: Affine<Self>,
    ) -> (FloatTensor<Self>, usize);
    /// Zeroes where the mask is false; routes on the int/bool tensors when the enum holds one.
    fn masked(#[extension_type] mask: Mask<Self>, values: IntTensor<Self>) -> IntTensor<Self>;
    /// Only an enum input: no tensor at run time for `Mask::All`.
    fn count(#[extension_type] mask: Mask<Self>) -> usize;
    /// No tensor input, one backend: routed statically.
    fn iota(n: usize) -> IntTensor<Self>;
    /// A struct result.
    fn split(x: FloatTensor<Self>) -> Affine<Self>;
    /// A default body: `x + x`.
    fn double(x: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::float_add(x.clone(), x)
    }
}

impl TestOps for Flex {
    fn affine(x: FloatTensor<Self>, affine: Affine<Self>) -> (FloatTensor<Self>, usize) {
        let y = Flex::float_mul(x, affine.scale);
        let y = match affine.shift {
            Some(shift) => Flex::float_add(y, shift),
            None => y,
        };
        (y, affine.label.len())
    }
    fn masked(mask: Mask<Self>, values: IntTensor<Self>) -> IntTensor<Self> {
        match mask {
            Mask::All => values,
            Mask::Where(mask) => Flex::int_mask_fill(values, Flex::bool_not(mask), 0.into()),
        }
    }
    fn count(mask: Mask<Self>) -> usize {
        match mask {
            Mask::All => usize::MAX,
            Mask::Where(mask) => mask.num_elements(),
        }
    }
    fn iota(n: usize) -> IntTensor<Self> {
        Flex::int_arange(0..n as i64, &Default::default(), IntDType::I64)
    }
    fn split(x: FloatTensor<Self>) -> Affine<Self> {
        Affine {
            scale: x.clone(),
            shift: Some(Flex::float_neg(x)),
            label: "split",
        }
    }
}

fn floats(t: Tensor<1>) -> Vec<f32> {
    t.into_data().to_vec::<f32>().unwrap()
}

#[test]
fn struct_arguments_and_tuple_results_are_converted() {
    let device = Device::flex();
    let x = Tensor::<1>::from_data([1.0, 2.0, 3.0], &device);
    let affine = Affine {
        scale: Tensor::<1>::from_data([2.0, 2.0, 2.0], &device).into_dispatch(),
        shift: Some(Tensor::<1>::from_data([0.5, 0.5, 0.5], &device).into_dispatch()),
        label: "four",
    };
    let (y, len) = <Dispatch as TestOps>::affine(x.into_dispatch(), affine);
    assert_eq!(floats(Tensor::from_dispatch(y)), vec![2.5, 4.5, 6.5]);
    assert_eq!(len, 4);
}

#[test]
fn enum_arguments_route_on_what_they_hold() {
    let device = Device::flex();
    let values = Tensor::<1, Int>::from_data([1, 2, 3], &device);
    let mask = Tensor::<1, Bool>::from_data([true, false, true], &device);
    let kept = <Dispatch as TestOps>::masked(
        Mask::Where(mask.into_dispatch()),
        values.clone().into_dispatch(),
    );
    let kept = Tensor::<1, Int>::from_dispatch(kept).into_data();
    assert_eq!(kept.to_vec::<i64>().unwrap(), vec![1, 0, 3]);
    let all = <Dispatch as TestOps>::masked(Mask::All, values.into_dispatch());
    assert_eq!(
        Tensor::<1, Int>::from_dispatch(all)
            .into_data()
            .to_vec::<i64>()
            .unwrap(),
        vec![1, 2, 3]
    );
    let mask = Tensor::<1, Bool>::from_data([true, false], &device);
    assert_eq!(
        <Dispatch as TestOps>::count(Mask::Where(mask.into_dispatch())),
        2
    );
}

#[test]
#[should_panic(expected = "TestOps::count: no tensor among the inputs")]
fn an_enum_without_a_tensor_is_a_clear_error() {
    <Dispatch as TestOps>::count(Mask::All);
}

#[test]
fn a_single_backend_routes_operations_without_tensors() {
    let t = Tensor::<1, Int>::from_dispatch(<Dispatch as TestOps>::iota(4));
    assert_eq!(t.into_data().to_vec::<i64>().unwrap(), vec![0, 1, 2, 3]);
}

#[test]
fn struct_results_and_default_bodies() {
    let x = Tensor::<1>::from_data([1.0, -2.0], &Device::flex());
    let split = <Dispatch as TestOps>::split(x.clone().into_dispatch());
    assert_eq!(split.label, "split");
    assert_eq!(
        floats(Tensor::from_dispatch(split.shift.unwrap())),
        vec![-1.0, 2.0]
    );
    let doubled = <Dispatch as TestOps>::double(x.into_dispatch());
    assert_eq!(floats(Tensor::from_dispatch(doubled)), vec![2.0, -4.0]);
}

#[cfg(feature = "autodiff")]
#[test]
fn autodiff_devices_keep_untracked_results_and_reject_tracked_inputs() {
    let device = Device::flex().autodiff();
    let x = Tensor::<1>::from_data([1.0, 2.0], &device);
    let doubled =
        Tensor::<1>::from_dispatch(<Dispatch as TestOps>::double(x.clone().into_dispatch()));
    assert!(
        doubled.device().is_autodiff(),
        "the result stays on the autodiff device"
    );
    let tracked = x.require_grad();
    let error = std::panic::catch_unwind(|| <Dispatch as TestOps>::double(tracked.into_dispatch()))
        .expect_err("a tracked input without the Autodiff selector");
    let message = error.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("TestOps::double: an input is tracked for autodiff")
            && message.contains("not among the selectors"),
        "{message}"
    );
}

#[cfg(feature = "wgpu")]
#[test]
fn unselected_backends_are_a_clear_error() {
    let Ok(device) = Device::try_wgpu(burn::tensor::DeviceKind::Cpu) else {
        return;
    };
    let x = Tensor::<1>::from_data([1.0], &device);
    let error = std::panic::catch_unwind(|| <Dispatch as TestOps>::double(x.into_dispatch()))
        .expect_err("Cube is not selected");
    let message = error.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("TestOps::double is not implemented for the Cube backend")
            && message.contains("selects Flex"),
        "{message}"
    );
}

#[test]
fn data_round_trips_through_the_dispatch_primitive() {
    let t = Tensor::<2>::from_data(TensorData::from([[1.0f32, 2.0]]), &Device::flex());
    let back = Tensor::<2>::from_dispatch(t.clone().into_dispatch());
    assert_eq!(back.into_data(), t.into_data());
}
