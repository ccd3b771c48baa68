//! Reading values back, the way a Burn 0.23 user writes it: `into_scalar::<E>()` converting to
//! the element type asked for, the `try_` forms returning why a read failed, and the
//! `TensorData` accessors.

use burn::prelude::*;
use burn::tensor::{DType, TensorReadError};

fn device() -> Device {
    Device::default()
}

#[test]
fn into_scalar_converts_to_the_type_asked_for() {
    let loss = Tensor::<1>::from_floats([0.25, 0.5], &device()).sum();
    let as_f32: f32 = loss.clone().into_scalar();
    assert_eq!(as_f32, 0.75);
    assert_eq!(loss.clone().into_scalar::<f64>(), 0.75);
    assert_eq!(loss.into_scalar::<i64>(), 0);
    let count = Tensor::<1, Int>::from_ints([3, 4], &device()).sum();
    assert_eq!(count.clone().into_scalar::<i64>(), 7);
    assert_eq!(count.into_scalar::<f32>(), 7.0);
    let any = Tensor::<1>::from_floats([0.0, 1.0], &device())
        .greater_elem(0.5)
        .any();
    assert!(any.into_scalar::<bool>());
}

#[test]
fn try_into_scalar_says_why_it_failed() {
    let x = Tensor::<2>::ones([2, 2], &device());
    // Burn's TensorReadError has no `PartialEq`: match the variant.
    assert!(matches!(
        x.clone().try_into_scalar::<f32>(),
        Err(TensorReadError::InvalidShape {
            expected: 1,
            actual: 4
        })
    ));
    assert_eq!(x.sum().try_into_scalar::<f32>().unwrap(), 4.0);
}

#[test]
#[should_panic(
    expected = "Tensor::into_scalar: expected a tensor of one element, got shape [2, 2]"
)]
fn into_scalar_of_many_elements_names_the_shape() {
    let _ = Tensor::<2>::ones([2, 2], &device()).into_scalar::<f32>();
}

#[test]
fn tensor_data_accessors() {
    let data = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.5]], &device()).into_data();
    assert_eq!(data.shape().as_slice(), [2, 2]);
    assert_eq!(data.dtype(), DType::F32);
    assert_eq!(data.try_to_vec::<f32>().unwrap(), [1.0, 2.0, 3.0, 4.5]);
    assert!(
        data.try_to_vec::<f64>().is_err(),
        "the strict read refuses another dtype"
    );
    assert_eq!(data.try_to_vec_as::<f64>().unwrap(), [1.0, 2.0, 3.0, 4.5]);
    assert_eq!(data.try_into_vec_as::<i32>().unwrap(), [1, 2, 3, 4]);
}

#[test]
fn data_readouts_convert_as_asked() {
    let x = Tensor::<1>::from_floats([1.5, -2.0], &device());
    assert_eq!(x.to_data_as::<f64>().dtype(), DType::F64);
    assert_eq!(
        x.to_data_dtype(DType::I32).try_to_vec::<i32>().unwrap(),
        [1, -2]
    );
    assert_eq!(x.try_to_vec_as::<f64>().unwrap(), [1.5, -2.0]);
    assert_eq!(x.try_to_data().unwrap().dtype(), DType::F32);
    assert_eq!(
        x.clone().into_data_as::<f64>().try_to_vec::<f64>().unwrap(),
        [1.5, -2.0]
    );
    assert_eq!(x.empty_like().dims(), [2]);
    let nonzero = x.clone().bool().into_data().try_to_vec::<bool>().unwrap();
    assert_eq!(nonzero, [true, true]);
    let eq = x
        .equal_scalar(1.5)
        .into_data()
        .try_to_vec::<bool>()
        .unwrap();
    assert_eq!(eq, [true, false]);
}

#[test]
fn shapes_read_as_slices() {
    let shape = Tensor::<3>::zeros([2, 3, 4], &device()).shape();
    assert_eq!(shape.rank(), 3);
    assert_eq!(shape.len(), 3, "a shape derefs to its sizes");
    assert_eq!(&shape[1..], &[3, 4]);
    assert_eq!(shape.to_vec(), vec![2, 3, 4]);
    assert_eq!(shape.as_slice().iter().product::<usize>(), 24);
}

#[test]
fn bool_tensors_combine_with_operators() {
    let a = Tensor::<1, Bool>::from_bool([true, true, false], &device());
    let b = Tensor::<1, Bool>::from_bool([true, false, false], &device());
    let read = |t: Tensor<1, Bool>| t.into_data().try_to_vec::<bool>().unwrap();
    assert_eq!(read(a.clone() & b.clone()), [true, false, false]);
    assert_eq!(read(a.clone() | b.clone()), [true, true, false]);
    assert_eq!(read(a ^ b), [false, true, false]);
}
