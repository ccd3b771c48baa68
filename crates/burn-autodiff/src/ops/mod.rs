//! The operations of `Autodiff<B, C>` and the API for writing backward rules.
//!
//! # Writing the backward of a custom operation
//!
//! A custom operation computes its result on the inner backend, then records a step through
//! [`Backward::prepare`]: the inputs' [`NodeGuard`](crate::NodeGuard)s go in, a state (values
//! saved with [`TrackedPrep::checkpoint`]) and the result come out as a tracked tensor.
//!
//! ```
//! use burn_autodiff::checkpoint::{Checkpointer, strategy::CheckpointStrategy};
//! use burn_autodiff::ops::{Backward, Ops, OpsKind, unary};
//! use burn_autodiff::{AutodiffTensor, Gradients, checkpoint::Saved};
//! use burn_backend::Backend;
//!
//! /// `x * sigmoid(x)` in one op, with a hand-written backward:
//! /// `d/dx = s + x * s * (1 - s)` where `s = sigmoid(x)`.
//! #[derive(Debug)]
//! struct Swish;
//!
//! impl<B: Backend> Backward<B, 1> for Swish {
//!     type State = Saved<B>;
//!
//!     fn backward(self, ops: Ops<Saved<B>, 1>, grads: &mut Gradients, ckp: &mut Checkpointer<B>) {
//!         let x = ckp.retrieve(ops.state);
//!         unary::<B>(ops.parents, ops.node, grads, |grad| {
//!             let s = B::sigmoid(x.clone());
//!             let one_minus_s = B::float_add_scalar(B::float_neg(s.clone()), 1.0.into());
//!             let ds = B::float_mul(B::float_mul(x, s.clone()), one_minus_s);
//!             B::float_mul(grad, B::float_add(s, ds))
//!         });
//!     }
//! }
//!
//! fn swish<B: Backend, C: CheckpointStrategy>(x: AutodiffTensor<B>) -> AutodiffTensor<B> {
//!     let out = B::float_mul(x.primitive().clone(), B::sigmoid(x.primitive().clone()));
//!     match Swish.prepare::<C>([x.node()]).memory_bound().stateful() {
//!         OpsKind::Tracked(mut prep) => {
//!             let state = prep.checkpoint(&x);
//!             prep.finish(state, out)
//!         }
//!         OpsKind::UnTracked(prep) => prep.finish(out),
//!     }
//! }
//! # use burn_autodiff::checkpoint::strategy::NoCheckpointing;
//! # use burn_backend::{TensorData, read_sync, ops::FloatTensorOps};
//! # type B = burn_flex::Flex;
//! let x = B::float_from_data(TensorData::from([0.5f64, -1.0]), &Default::default());
//! let x = AutodiffTensor::<B>::new(x).require_grad();
//! let y = swish::<B, NoCheckpointing>(x.clone());
//! let grad = x.grad(&y.backward()).unwrap();
//! let grad = read_sync(B::float_into_data(grad)).unwrap().to_vec::<f64>().unwrap();
//! let s = 1.0 / (1.0 + (-0.5f64).exp());
//! assert!((grad[0] - (s + 0.5 * s * (1.0 - s))).abs() < 1e-12);
//! ```

#[macro_use]
mod delegate;
mod activation;
mod backward;
mod bool;
mod float;
mod float_layout;
mod float_reduce;
mod int;
mod module;
mod module_pool;
mod qtensor;
pub(crate) mod record;
mod transaction;

pub use backward::{Backward, Ops, OpsKind, OpsPrep, TrackedPrep, UntrackedPrep, binary, unary};
