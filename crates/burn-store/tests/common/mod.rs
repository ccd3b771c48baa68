//! The model the tests save and load, and helpers to build, compare and craft files.
#![allow(dead_code)] // each test binary uses a part

use burn_core as burn;

pub mod quant;

use burn::module::{Module, ModuleVisitor, Param, ParamId};
use burn::tensor::{Bool, Device, Int, Shape, Tensor, TensorData};
use burn_store::{ModuleSnapshot, TensorSnapshot};
use safetensors::tensor::{Dtype, TensorView};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A dense layer with an optional bias.
#[derive(Module, Debug)]
pub struct Linear {
    pub weight: Param<Tensor<2>>,
    pub bias: Option<Param<Tensor<1>>>,
}

/// A nested sub-module.
#[derive(Module, Debug)]
pub struct Block {
    pub linear: Linear,
    pub norm: Param<Tensor<1>>,
}

/// The model: a top-level param, a Vec of sub-modules, an Option, an int and a bool param,
/// and a constant.
#[derive(Module, Debug)]
pub struct Net {
    pub embed: Param<Tensor<2>>,
    pub blocks: Vec<Block>,
    pub head: Option<Linear>,
    pub steps: Param<Tensor<1, Int>>,
    pub mask: Param<Tensor<2, Bool>>,
    pub label: String,
}

/// The keys of a `Net` with a head, in visiting order.
pub fn keys() -> Vec<String> {
    [
        "embed",
        "blocks.0.linear.weight",
        "blocks.0.linear.bias",
        "blocks.0.norm",
        "blocks.1.linear.weight",
        "blocks.1.norm",
        "head.weight",
        "head.bias",
        "steps",
        "mask",
    ]
    .map(String::from)
    .to_vec()
}

/// Deterministic values, different for each `seed`.
pub fn values(n: usize, seed: f32) -> Vec<f32> {
    (0..n)
        .map(|i| ((i as f32 + 1.0) * 0.37 + seed).sin() * seed)
        .collect()
}

fn float<const D: usize>(shape: [usize; D], seed: f32, device: &Device) -> Param<Tensor<D>> {
    let n = shape.iter().product();
    Param::from_tensor(Tensor::from_data(
        TensorData::new(values(n, seed), shape),
        device,
    ))
}

/// A `Net` whose values depend on `seed`, with or without a head, `embed` of `embed_shape`.
pub fn net_with(device: &Device, seed: f32, head: bool, embed_shape: [usize; 2]) -> Net {
    let block = |rows, bias: bool, s: f32| Block {
        linear: Linear {
            weight: float([rows, 3], seed + s, device),
            bias: bias.then(|| float([3], seed + s + 0.5, device)),
        },
        norm: float([3], seed + s + 0.25, device),
    };
    Net {
        embed: float(embed_shape, seed, device),
        blocks: vec![block(3, true, 1.0), block(3, false, 2.0)],
        head: head.then(|| Linear {
            weight: float([3, 2], seed + 3.0, device),
            bias: Some(float([2], seed + 3.5, device)),
        }),
        steps: Param::from_tensor(Tensor::from_data(
            TensorData::from([seed as i64, 2, -3]),
            device,
        )),
        mask: Param::from_tensor(Tensor::from_data(
            TensorData::from([[seed > 1.5, false], [true, seed > 2.5]]),
            device,
        )),
        label: format!("net {seed}"),
    }
}

/// A `Net` with a head and `embed` of shape `[2, 3]`.
pub fn net(device: &Device, seed: f32) -> Net {
    net_with(device, seed, true, [2, 3])
}

fn lazy<const D: usize, K>(
    shape: [usize; D],
    device: &Device,
    runs: &Arc<AtomicUsize>,
) -> Param<Tensor<D, K>>
where
    K: burn::tensor::BasicOps,
    Tensor<D, K>: burn::module::Parameter,
{
    let runs = runs.clone();
    Param::uninitialized(
        ParamId::new(),
        move |device, _| {
            runs.fetch_add(1, Ordering::SeqCst);
            Tensor::<D, K>::full(shape, 0i64, device)
        },
        device.clone(),
        true,
        Shape::from(shape),
    )
}

/// A `Net` (with a head) whose parameters are all lazy; `runs` counts initializer runs.
pub fn lazy_net(device: &Device, runs: &Arc<AtomicUsize>) -> Net {
    let block = |bias: bool| Block {
        linear: Linear {
            weight: lazy([3, 3], device, runs),
            bias: bias.then(|| lazy([3], device, runs)),
        },
        norm: lazy([3], device, runs),
    };
    Net {
        embed: lazy([2, 3], device, runs),
        blocks: vec![block(true), block(false)],
        head: Some(Linear {
            weight: lazy([3, 2], device, runs),
            bias: Some(lazy([2], device, runs)),
        }),
        steps: lazy([3], device, runs),
        mask: lazy([2, 2], device, runs),
        label: "lazy".into(),
    }
}

/// Counts parameters that are initialized, without initializing any.
#[derive(Default)]
pub struct Initialized {
    pub initialized: usize,
    pub lazy: usize,
}

impl Initialized {
    fn count(&mut self, initialized: bool) {
        if initialized {
            self.initialized += 1;
        } else {
            self.lazy += 1;
        }
    }

    /// Counts the parameters of `module`.
    pub fn of<M: Module>(module: &M) -> Self {
        let mut counter = Self::default();
        module.visit(&mut counter);
        counter
    }
}

impl ModuleVisitor for Initialized {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.count(param.is_initialized());
    }
    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.count(param.is_initialized());
    }
    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.count(param.is_initialized());
    }
}

/// Every parameter's key and values (initializes lazy parameters).
pub fn dump<M: Module>(module: &M) -> Vec<(String, TensorData)> {
    module
        .collect()
        .unwrap()
        .into_iter()
        .map(|TensorSnapshot { key, data }| (key, data))
        .collect()
}

/// Asserts two dumps hold the same keys and values.
pub fn assert_same(a: &[(String, TensorData)], b: &[(String, TensorData)]) {
    assert_eq!(
        a.iter().map(|e| &e.0).collect::<Vec<_>>(),
        b.iter().map(|e| &e.0).collect::<Vec<_>>()
    );
    for ((key, x), (_, y)) in a.iter().zip(b) {
        assert_eq!(x, y, "values of `{key}` differ");
    }
}

/// A file path in the temp dir, removed when dropped.
pub struct TempFile(pub PathBuf);

impl TempFile {
    /// A fresh path named after `name`.
    pub fn new(name: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!(
            "burn-store-{}-{n}-{name}.safetensors",
            std::process::id()
        ));
        Self(path)
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The path as errors print it.
    pub fn label(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A raw tensor for [`craft`]: key, file dtype, shape, little-endian bytes.
pub struct Raw {
    pub key: String,
    pub dtype: Dtype,
    pub shape: Vec<usize>,
    pub bytes: Vec<u8>,
}

impl Raw {
    /// `data` under `key`, in the file dtype matching its dtype.
    pub fn of(key: &str, data: &TensorData) -> Self {
        use burn::tensor::DType;
        let dtype = match data.dtype {
            DType::F64 => Dtype::F64,
            DType::F32 => Dtype::F32,
            DType::F16 => Dtype::F16,
            DType::BF16 => Dtype::BF16,
            DType::I64 => Dtype::I64,
            DType::I32 => Dtype::I32,
            DType::U8 => Dtype::U8,
            DType::Bool(_) => Dtype::BOOL,
            other => panic!("no raw dtype for {other}"),
        };
        Self {
            key: key.into(),
            dtype,
            shape: data.shape.to_vec(),
            bytes: data.as_bytes().to_vec(),
        }
    }
}

/// A safetensors file of `tensors`, written with the safetensors crate itself.
pub fn craft(tensors: &[Raw]) -> Vec<u8> {
    let views: Vec<(String, TensorView<'_>)> = tensors
        .iter()
        .map(|t| {
            let view = TensorView::new(t.dtype, t.shape.clone(), &t.bytes).unwrap();
            (t.key.clone(), view)
        })
        .collect();
    safetensors::serialize(views, None).unwrap()
}

/// The raw tensors of `module` (keys as module paths).
pub fn raw_of<M: Module>(module: &M) -> Vec<Raw> {
    dump(module).iter().map(|(k, d)| Raw::of(k, d)).collect()
}
