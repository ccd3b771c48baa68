//! Inputs and comparisons for the suite: seeded random arrays rounded to the device's float
//! dtype, tensors built from them in several memory layouts, and per-dtype tolerances.

use crate::reference::RefArray;
use burn::tensor::{
    BasicOps, Bool, DType, Device, Float, FloatDType, Int, Slice, Tensor, TensorData, bf16, f16,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `value` rounded to the nearest value of `dtype` (what a tensor of that dtype holds).
pub fn round_to(dtype: FloatDType, value: f64) -> f64 {
    match dtype {
        FloatDType::F64 => value,
        FloatDType::F32 => value as f32 as f64,
        FloatDType::F16 => f16::from_f64(value).to_f64(),
        FloatDType::BF16 => bf16::from_f64(value).to_f64(),
    }
}

/// A seed derived from a name (FNV-1a), so each test draws its own inputs.
pub fn seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The relative and absolute tolerance of one float dtype, before an op-specific factor.
pub fn base_tolerance(dtype: FloatDType) -> (f64, f64) {
    match dtype {
        FloatDType::F64 => (1e-10, 1e-10),
        FloatDType::F32 => (1e-5, 1e-5),
        FloatDType::F16 => (1e-2, 1e-2),
        FloatDType::BF16 => (5e-2, 5e-2),
    }
}

/// How the values of an input tensor are laid out in memory. Every layout holds the same
/// logical values; only strides and offsets differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Row-major, built directly from the data.
    Contiguous,
    /// Built transposed, then `swap_dims` of the last two dims (rank 1: contiguous).
    Transposed,
    /// Every second element of a buffer twice as long in the last dim, starting at offset 1
    /// (`slice` with step 2); the skipped elements hold a sentinel.
    Strided,
    /// Built reversed along every dim, then `flip`ped back (negative strides).
    Flipped,
}

impl Layout {
    /// Every layout.
    pub const ALL: [Layout; 4] = [
        Layout::Contiguous,
        Layout::Transposed,
        Layout::Strided,
        Layout::Flipped,
    ];

    /// `make(a)` laid out this way: a tensor whose logical values are `a`.
    pub fn apply<const D: usize, K: BasicOps>(
        self,
        a: &RefArray,
        sentinel: f64,
        make: impl Fn(&RefArray) -> Tensor<D, K>,
    ) -> Tensor<D, K> {
        assert_eq!(a.rank(), D, "Layout::apply: rank of the reference input");
        match self {
            Layout::Contiguous => make(a),
            Layout::Transposed if D < 2 => make(a),
            Layout::Transposed => make(&a.swap_dims(D - 2, D - 1)).swap_dims(D - 2, D - 1),
            Layout::Strided => {
                let mut shape = a.shape.clone();
                shape[D - 1] *= 2;
                let wide = RefArray::from_fn(&shape, |i| {
                    let last = i[D - 1];
                    if last % 2 == 1 {
                        let mut source = i.to_vec();
                        source[D - 1] = last / 2;
                        a.at(&source)
                    } else {
                        sentinel
                    }
                });
                let mut slices = vec![Slice::full(); D];
                slices[D - 1] = Slice::new(1, None, 2);
                make(&wide).slice(&slices)
            }
            Layout::Flipped => {
                let all: Vec<usize> = (0..D).collect();
                let axes: [isize; D] = core::array::from_fn(|i| i as isize);
                make(&a.flip(&all)).flip(axes)
            }
        }
    }
}

/// The device under test, its default float dtype, and helpers to build inputs and check
/// results against the reference.
#[derive(Clone, Debug)]
pub struct Env {
    /// The device under test.
    pub device: Device,
    /// Its default float dtype.
    pub dtype: FloatDType,
}

impl Env {
    /// The environment of `device` (reads its settings).
    pub fn new(device: Device) -> Self {
        let dtype = device.settings().float_dtype;
        Self { device, dtype }
    }

    /// `a` rounded to the float dtype.
    pub fn round(&self, a: &RefArray) -> RefArray {
        a.map(|v| round_to(self.dtype, v))
    }

    /// Uniform values in `[low, high)` from `seed`, rounded to the float dtype.
    pub fn random(&self, shape: &[usize], low: f64, high: f64, seed: u64) -> RefArray {
        let mut rng = StdRng::seed_from_u64(seed);
        let a = RefArray::from_fn(shape, |_| rng.random_range(low..high));
        self.round(&a)
    }

    /// Values with magnitude uniform in `[low, high)` (`0 < low`) and a random sign, from
    /// `seed`, rounded to the float dtype: safe divisors.
    pub fn random_nonzero(&self, shape: &[usize], low: f64, high: f64, seed: u64) -> RefArray {
        let mut rng = StdRng::seed_from_u64(seed);
        let a = RefArray::from_fn(shape, |_| {
            let magnitude = rng.random_range(low..high);
            if rng.random::<bool>() {
                magnitude
            } else {
                -magnitude
            }
        });
        self.round(&a)
    }

    /// Uniform integers in `[low, high)` from `seed`.
    pub fn random_int(&self, shape: &[usize], low: i64, high: i64, seed: u64) -> RefArray {
        let mut rng = StdRng::seed_from_u64(seed);
        RefArray::from_fn(shape, |_| rng.random_range(low..high) as f64)
    }

    /// Booleans (1.0 / 0.0), each true with probability `p`.
    pub fn random_bool(&self, shape: &[usize], p: f64, seed: u64) -> RefArray {
        let mut rng = StdRng::seed_from_u64(seed);
        RefArray::from_fn(shape, |_| (rng.random::<f64>() < p) as u8 as f64)
    }

    /// A float tensor holding exactly `a`; panics when `a` is not representable in the float
    /// dtype (round it with [`Env::round`] or build it with [`Env::random`]).
    pub fn float<const D: usize>(&self, a: &RefArray) -> Tensor<D> {
        if let Some(i) = a
            .data
            .iter()
            .position(|&v| !(round_to(self.dtype, v) == v || v.is_nan()))
        {
            panic!(
                "harness: reference input value {} (index {i}) is not a {} value; round it first",
                a.data[i], self.dtype
            );
        }
        Tensor::<D>::from_data(
            TensorData::new(a.data.clone(), a.shape.clone()),
            &self.device,
        )
    }

    /// A float tensor holding `a` in `layout`.
    pub fn float_in<const D: usize>(&self, a: &RefArray, layout: Layout) -> Tensor<D> {
        layout.apply(a, 112.0, |b| self.float::<D>(b))
    }

    /// `small` broadcast to `shape` with `expand` (no copy), and the reference of it.
    pub fn expanded<const D: usize>(
        &self,
        small: &RefArray,
        shape: [usize; D],
    ) -> (Tensor<D>, RefArray) {
        (
            self.float::<D>(small).expand(shape),
            small.broadcast_to(&shape),
        )
    }

    /// An int tensor of the default int dtype holding `a` (integral values).
    pub fn int<const D: usize>(&self, a: &RefArray) -> Tensor<D, Int> {
        Tensor::<D, Int>::from_data(TensorData::new(a.to_i64(), a.shape.clone()), &self.device)
    }

    /// An int tensor holding `a` in `layout`.
    pub fn int_in<const D: usize>(&self, a: &RefArray, layout: Layout) -> Tensor<D, Int> {
        layout.apply(a, 77.0, |b| self.int::<D>(b))
    }

    /// A bool tensor, true where `a` is non-zero.
    pub fn bool<const D: usize>(&self, a: &RefArray) -> Tensor<D, Bool> {
        Tensor::<D, Bool>::from_data(TensorData::new(a.to_bool(), a.shape.clone()), &self.device)
    }

    /// A bool tensor holding `a` in `layout`.
    pub fn bool_in<const D: usize>(&self, a: &RefArray, layout: Layout) -> Tensor<D, Bool> {
        layout.apply(a, 1.0, |b| self.bool::<D>(b))
    }

    /// The tolerance `(relative, absolute)` of the float dtype times `factor`.
    pub fn tolerance(&self, factor: f64) -> (f64, f64) {
        let (rel, abs) = base_tolerance(self.dtype);
        (rel * factor, abs * factor)
    }

    /// Panics unless `got` has the default float dtype, the shape of `expected` and values
    /// within the dtype's tolerance times `factor`.
    pub fn check<const D: usize>(
        &self,
        op: &str,
        got: Tensor<D, Float>,
        expected: &RefArray,
        factor: f64,
    ) {
        let dtype = got.dtype();
        assert_eq!(
            dtype,
            DType::from(self.dtype),
            "{op}: result dtype {dtype}, expected the default float dtype {}",
            self.dtype
        );
        let (rel, abs) = self.tolerance(factor);
        compare(op, &got.into_data(), expected, rel, abs);
    }

    /// Like [`check`](Self::check) for a float tensor of any float dtype, with an explicit
    /// tolerance.
    pub fn check_tol<const D: usize>(
        &self,
        op: &str,
        got: Tensor<D, Float>,
        expected: &RefArray,
        rel: f64,
        abs: f64,
    ) {
        compare(op, &got.into_data(), expected, rel, abs);
    }

    /// Panics unless the int tensor `got` equals `expected` exactly.
    pub fn check_int<const D: usize>(&self, op: &str, got: Tensor<D, Int>, expected: &RefArray) {
        let dtype = got.dtype();
        assert!(
            dtype.is_int(),
            "{op}: result dtype {dtype} is not an int dtype"
        );
        compare(op, &got.into_data(), expected, 0.0, 0.0);
    }

    /// Panics unless the bool tensor `got` equals `expected` (non-zero is true).
    pub fn check_bool<const D: usize>(&self, op: &str, got: Tensor<D, Bool>, expected: &RefArray) {
        let dtype = got.dtype();
        assert!(
            dtype.is_bool(),
            "{op}: result dtype {dtype} is not a bool dtype"
        );
        compare(
            op,
            &got.into_data(),
            &expected.map(|v| (v != 0.0) as u8 as f64),
            0.0,
            0.0,
        );
    }
}

/// Panics unless `got` has the shape of `expected` and every value is within
/// `max(abs, rel · |expected|)` (NaN matches NaN, infinities match themselves); the message
/// names the op, the shape, the first differing index, and both values.
pub fn compare(op: &str, got: &TensorData, expected: &RefArray, rel: f64, abs: f64) {
    assert_eq!(
        got.shape.dims[..],
        expected.shape[..],
        "{op}: got shape {:?}, expected {:?}",
        got.shape.dims,
        expected.shape
    );
    let values: Vec<f64> = got
        .to_vec::<f64>()
        .unwrap_or_else(|e| panic!("{op}: cannot read the result: {e}"));
    let close = |g: f64, e: f64| {
        if g.is_nan() || e.is_nan() {
            g.is_nan() && e.is_nan()
        } else if g.is_infinite() || e.is_infinite() {
            g == e
        } else {
            (g - e).abs() <= abs.max(rel * e.abs())
        }
    };
    let bad: Vec<usize> = (0..values.len())
        .filter(|&i| !close(values[i], expected.data[i]))
        .collect();
    if let Some(&first) = bad.first() {
        panic!(
            "{op}: shape {:?}, dtype {}: {} of {} values differ; first at index {:?}: got {}, \
             expected {} (tolerance rel {rel:e}, abs {abs:e})",
            expected.shape,
            got.dtype,
            bad.len(),
            values.len(),
            crate::reference::unravel(&expected.shape, first),
            values[first],
            expected.data[first],
        );
    }
}

/// A float dtype other than `dtype` that `device` supports, for tests of mixed dtypes: `f64`
/// (or `f32` in an `f64` run) where the device has it, else a 16-bit one.
///
/// # Panics
/// When the device supports no float dtype but `dtype`.
pub fn other_float_dtype(device: &Device, dtype: FloatDType) -> FloatDType {
    [
        FloatDType::F64,
        FloatDType::F32,
        FloatDType::F16,
        FloatDType::BF16,
    ]
    .into_iter()
    .find(|other| *other != dtype && device.supports_dtype(*other))
    .unwrap_or_else(|| panic!("other_float_dtype: {device:?} supports no float dtype but {dtype}"))
}
