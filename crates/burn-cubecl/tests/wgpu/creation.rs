//! Creation kernels and host transfers, for every dtype the device stores.

use crate::device_or_skip;
use crate::harness::{read, round_to, tensor};
use burn_backend::{BoolStore, DType, Scalar, Shape, TensorData};
use burn_cubecl::dtype::{bool_dtype, device_dtype_usage};
use burn_cubecl::kernel::{arange, full, ones, zeros};
use burn_cubecl::{CubeDevice, CubeTensor};

/// The dtypes (bool store included) `device` can compute with.
pub fn arithmetic_dtypes(device: &CubeDevice) -> Vec<DType> {
    let mut dtypes: Vec<DType> = [
        DType::F64,
        DType::F32,
        DType::F16,
        DType::BF16,
        DType::I64,
        DType::I32,
        DType::I16,
        DType::I8,
        DType::U64,
        DType::U32,
        DType::U16,
        DType::U8,
    ]
    .into_iter()
    .filter(|&d| device_dtype_usage(device, d).arithmetic)
    .collect();
    dtypes.push(bool_dtype(&device.client()));
    dtypes
}

const SHAPES: [&[usize]; 5] = [&[], &[0], &[7], &[3, 5], &[2, 3, 8]];

#[test]
fn full_zeros_ones_every_dtype() {
    let device = device_or_skip!();
    for dtype in arithmetic_dtypes(&device) {
        for shape in SHAPES {
            let n: usize = shape.iter().product();
            let s = Shape::from(shape.to_vec());
            for (value, t) in [
                (2.75, full(s.clone(), Scalar::Float(2.75), dtype, &device)),
                (0.0, zeros(s.clone(), dtype, &device)),
                (1.0, ones(s.clone(), dtype, &device)),
            ] {
                let expected = round_to(&vec![value; n], dtype);
                let expected = if dtype.is_int() {
                    vec![value.trunc(); n]
                } else {
                    expected
                };
                assert_eq!(
                    read(t, shape, dtype),
                    expected,
                    "full {value} {dtype} {shape:?}"
                );
            }
        }
        if dtype.is_signed_int() || dtype.is_float() {
            let t = full(Shape::new([4]), Scalar::Int(-3), dtype, &device);
            assert_eq!(read(t, &[4], dtype), vec![-3.0; 4], "full -3 {dtype}");
        }
    }
}

#[test]
fn arange_ints_and_floats() {
    let device = device_or_skip!();
    for dtype in arithmetic_dtypes(&device) {
        if dtype.is_bool() {
            continue;
        }
        let (start, end) = if dtype.is_unsigned_int() {
            (2, 40)
        } else {
            (-7, 30)
        };
        for step in [1, 3] {
            let expected: Vec<f64> = (start..end).step_by(step).map(|v| v as f64).collect();
            let t = arange(start..end, step, dtype, &device);
            assert_eq!(
                read(t, &[expected.len()], dtype),
                expected,
                "arange {dtype} step {step}"
            );
        }
        let empty = arange(5..5, 1, dtype, &device);
        assert_eq!(read(empty, &[0], dtype), Vec::<f64>::new());
    }
}

#[test]
fn data_round_trip_every_dtype() {
    let device = device_or_skip!();
    for dtype in arithmetic_dtypes(&device) {
        let values: Vec<f64> = (0..24).map(|i| f64::from(i % 7)).collect();
        for shape in [&[24][..], &[2, 3, 4], &[4, 6]] {
            let t = tensor(&device, &values, shape, dtype);
            assert!(t.is_contiguous());
            assert_eq!(
                read(t, shape, dtype),
                round_to(&values, dtype),
                "{dtype} {shape:?}"
            );
        }
    }
}

#[test]
fn native_bools_take_the_device_store() {
    let device = device_or_skip!();
    let store = bool_dtype(&device.client());
    let data = TensorData::new(vec![true, false, true, true], [2, 2]);
    assert_eq!(data.dtype, DType::Bool(BoolStore::Native));
    let t = CubeTensor::from_data(data, &device);
    assert_eq!(burn_backend::TensorMetadata::dtype(&t), store);
    assert_eq!(read(t, &[2, 2], store), vec![1.0, 0.0, 1.0, 1.0]);
}

#[test]
fn async_read_and_sync() {
    let device = device_or_skip!();
    let t = full(Shape::new([1000]), Scalar::Float(0.5), DType::F32, &device);
    t.sync().expect("sync");
    let future = t.into_data();
    let data = burn_backend::read_sync(future).expect("read");
    assert_eq!(data.to_vec::<f32>().unwrap(), vec![0.5f32; 1000]);
}
