//! Graph capture: record what a closure does to its tensors once, then replay it with new
//! inputs without running the closure again.
//!
//! ```
//! use burn_tensor::{Device, Tensor, activation};
//! let device = Device::default();
//! let weight = Tensor::<2>::from_floats([[1.0, -1.0], [0.5, 2.0]], &device);
//! let x = Tensor::<2>::from_floats([[1.0, 2.0]], &device);
//!
//! // Record the step once (the example input gives the shapes and dtypes)…
//! let step = device
//!     .capture(&x, |x: Tensor<2>| activation::relu(x.matmul(weight.clone())) * 2.0)
//!     .expect("every operation of the step can be recorded");
//! // …then replay it on new inputs of the same shape: the same numbers as running it.
//! let y = step.replay(Tensor::from_floats([[3.0, -1.0]], &device)).unwrap();
//! assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![5.0, 0.0]);
//! ```
//!
//! Tensors from outside the closure (a model's weights, `weight` above) become constants of
//! the graph: a replay uses their values at capture time (a quantized one dequantized). Inside
//! the closure tensors have no values yet: reading one (`into_data`, `into_scalar`), an
//! operation whose output shape depends on the values (`nonzero`, `argwhere`) or a pooling
//! that returns its indices (`max_pool2d_with_indices`, not recorded by the IR yet) stop the
//! capture with [`CaptureError::Unsupported`].
//!
//! A replay runs the recorded IR through the backend of the inputs' device, chosen once per
//! replay: the public API's checks and the per-operation routing are skipped. It can run on
//! any device (the constants are moved there once), and on an autodiff device tracked inputs
//! record their steps as in eager execution.

use crate::kind::Basic;
use crate::{Device, Tensor};
use burn_backend::{DType, TensorMetadata};
use burn_dispatch::capture as dispatch_capture;
use burn_dispatch::{Dispatch, DispatchTensor};
use core::marker::PhantomData;

pub use burn_dispatch::capture::CaptureError;
pub use burn_ir::OperationIr;

/// How the tensors of a [`CaptureArgs`] value are nested (the lengths of its `Vec`s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgsLayout {
    /// One tensor.
    Tensor,
    /// A tuple, array or `Vec` of values.
    Group(Vec<ArgsLayout>),
}

/// What goes into or comes out of a captured closure: a [`Tensor`], or a tuple, array or
/// `Vec` of them (nested as needed).
pub trait CaptureArgs: Sized {
    /// Appends the tensors' primitives in order.
    fn flatten(self, into: &mut Vec<DispatchTensor>);
    /// How the tensors are nested.
    fn layout(&self) -> ArgsLayout;
    /// Takes the tensors back from `from`, nested as `layout` says.
    fn unflatten(from: &mut dyn Iterator<Item = DispatchTensor>, layout: &ArgsLayout) -> Self;
}

impl<const D: usize, K: Basic> CaptureArgs for Tensor<D, K> {
    fn flatten(self, into: &mut Vec<DispatchTensor>) {
        into.push(self.into_primitive());
    }
    fn layout(&self) -> ArgsLayout {
        ArgsLayout::Tensor
    }
    fn unflatten(from: &mut dyn Iterator<Item = DispatchTensor>, _layout: &ArgsLayout) -> Self {
        Tensor::from_primitive(from.next().expect("capture: fewer tensors than the layout"))
    }
}

impl<T: CaptureArgs> CaptureArgs for Vec<T> {
    fn flatten(self, into: &mut Vec<DispatchTensor>) {
        self.into_iter().for_each(|x| x.flatten(into));
    }
    fn layout(&self) -> ArgsLayout {
        ArgsLayout::Group(self.iter().map(T::layout).collect())
    }
    fn unflatten(from: &mut dyn Iterator<Item = DispatchTensor>, layout: &ArgsLayout) -> Self {
        group(layout)
            .iter()
            .map(|l| T::unflatten(from, l))
            .collect()
    }
}

impl<T: CaptureArgs, const N: usize> CaptureArgs for [T; N] {
    fn flatten(self, into: &mut Vec<DispatchTensor>) {
        self.into_iter().for_each(|x| x.flatten(into));
    }
    fn layout(&self) -> ArgsLayout {
        ArgsLayout::Group(self.iter().map(T::layout).collect())
    }
    fn unflatten(from: &mut dyn Iterator<Item = DispatchTensor>, layout: &ArgsLayout) -> Self {
        let layouts = group(layout);
        core::array::from_fn(|i| T::unflatten(from, &layouts[i]))
    }
}

fn group(layout: &ArgsLayout) -> &[ArgsLayout] {
    match layout {
        ArgsLayout::Group(items) => items,
        ArgsLayout::Tensor => panic!("capture: expected a group of tensors in the layout"),
    }
}

macro_rules! tuple_args {
    ($($T:ident $i:tt),+) => {
        impl<$($T: CaptureArgs),+> CaptureArgs for ($($T,)+) {
            fn flatten(self, into: &mut Vec<DispatchTensor>) {
                $( self.$i.flatten(into); )+
            }
            fn layout(&self) -> ArgsLayout {
                ArgsLayout::Group(vec![$( self.$i.layout() ),+])
            }
            fn unflatten(from: &mut dyn Iterator<Item = DispatchTensor>, layout: &ArgsLayout) -> Self {
                let layouts = group(layout);
                ($( $T::unflatten(from, &layouts[$i]), )+)
            }
        }
    };
}

tuple_args!(A 0);
tuple_args!(A 0, B 1);
tuple_args!(A 0, B 1, C 2);
tuple_args!(A 0, B 1, C 2, D 3);
tuple_args!(A 0, B 1, C 2, D 3, E 4);
tuple_args!(A 0, B 1, C 2, D 3, E 4, F 5);

/// A closure's tensor operations recorded by [`Device::capture`], replayable with new inputs
/// of the shapes and dtypes it was captured with (see the [module docs](self)).
pub struct CapturedGraph<I, O> {
    graph: dispatch_capture::CapturedGraph,
    input_layout: ArgsLayout,
    output_layout: ArgsLayout,
    io: PhantomData<fn(I) -> O>,
}

impl<I: CaptureArgs, O: CaptureArgs> CapturedGraph<I, O> {
    /// Runs the recorded operations on `inputs` (all on one device, any executing device) and
    /// returns the outputs the closure returned, computed from them.
    pub fn replay(&self, inputs: I) -> Result<O, CaptureError> {
        let layout = inputs.layout();
        if layout != self.input_layout {
            let mut flat = Vec::new();
            inputs.flatten(&mut flat);
            return Err(CaptureError::InputCount {
                expected: self.graph.num_inputs(),
                got: flat.len(),
            });
        }
        let mut flat = Vec::with_capacity(self.graph.num_inputs());
        inputs.flatten(&mut flat);
        let outputs = self.graph.replay(flat)?;
        Ok(O::unflatten(&mut outputs.into_iter(), &self.output_layout))
    }

    /// The recorded operations, in execution order (those no output depends on are dropped).
    pub fn operations(&self) -> &[OperationIr] {
        self.graph.operations()
    }

    /// The number of constants: tensors from outside the closure and data made inside it.
    pub fn num_constants(&self) -> usize {
        self.graph.num_constants()
    }
}

impl<I, O> core::fmt::Debug for CapturedGraph<I, O> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CapturedGraph")
            .field("operations", &self.graph.operations().len())
            .field("inputs", &self.graph.num_inputs())
            .field("outputs", &self.graph.num_outputs())
            .field("constants", &self.graph.num_constants())
            .finish()
    }
}

impl Device {
    /// Records what `f` does to tensors shaped like `example` on this device's hardware,
    /// without running it, and returns the graph to [replay](CapturedGraph::replay) (see
    /// [`crate::capture`]).
    ///
    /// `f` gets placeholder tensors of the example's shapes and dtypes; the values of
    /// `example` are not used. Returns [`CaptureError::Unsupported`] when `f` reads a tensor
    /// or calls an operation that cannot be recorded.
    pub fn capture<I, O, F>(&self, example: &I, f: F) -> Result<CapturedGraph<I, O>, CaptureError>
    where
        I: CaptureArgs + Clone,
        O: CaptureArgs,
        F: FnOnce(I) -> O,
    {
        let input_layout = example.layout();
        let mut flat = Vec::new();
        example.clone().flatten(&mut flat);
        // A quantized example stands for float inputs of the device's float dtype (what a
        // quantized input is dequantized to on replay).
        let float_dtype: DType = burn_backend::get_device_settings::<Dispatch>(self.dispatch())
            .float_dtype
            .into();
        let specs: Vec<_> = flat
            .iter()
            .map(|t| {
                let dtype = match t.dtype() {
                    DType::QFloat(_) => float_dtype,
                    dtype => dtype,
                };
                (t.shape(), dtype)
            })
            .collect();
        drop(flat);
        let mut output_layout = None;
        let graph = dispatch_capture::capture(self.dispatch(), &specs, |placeholders| {
            let inputs = I::unflatten(&mut placeholders.into_iter(), &input_layout);
            let outputs = f(inputs);
            output_layout = Some(outputs.layout());
            let mut flat = Vec::new();
            outputs.flatten(&mut flat);
            flat
        })?;
        Ok(CapturedGraph {
            graph,
            input_layout,
            output_layout: output_layout.expect("the closure returned"),
            io: PhantomData,
        })
    }
}
