//! The operation tables: the one description of each recorded backend operation.
//!
//! Each table is a macro that hands its lines to a callback macro, so the IR enums and the
//! reference interpreter (here), the `Fusion<B>` methods (`burn-fusion`), graph capture and
//! `Dispatch`'s routing (`burn-dispatch`) and `Autodiff`'s int/bool methods (`burn-autodiff`)
//! are all generated from the same lines. Adding a backend operation is: its method in the
//! contract (`burn-backend`), its line here, and what is particular to it (a backward rule in
//! `burn-autodiff`, kernels, the `Tensor` method and its kind-table line in `burn-tensor`). A table looks like:
//!
//! ```text
//! float_operations!(callback) expands to
//! callback! {
//!     FloatOperationIr, "float";
//!     lazy {
//!         Add = float_add(lhs: F, rhs: F) -> F => |c| rules::promote(c, &lhs, &rhs);
//!         …
//!     }
//!     eager {
//!         Conv2d = conv2d(x: F, weight: F, bias: OptF, options: Val[ConvOptions<2>]) -> F;
//!     }
//! }
//! ```
//!
//! - `Variant = method(args) -> out`: the IR variant and the backend method it records.
//! - Argument kinds, in the method's order: `F`, `I`, `B` (a float, int or bool tensor taken by
//!   value), `OptF`, `OptB` (optional tensors), `VecF`, `VecI`, `VecB` (lists), `Dev` (the
//!   device: not recorded, an operation runs on its stream's device), `Val[T]` (a plain value),
//!   `Slice[T]` (a `&[T]` argument, recorded as `Vec<T>`).
//! - Output kinds: `F`, `I`, `B`, or the pairs `FI`, `II`.
//! - Each table also lists **composite** operations: methods the contract gives a default
//!   body (composed of other operations) that backends may replace with their own kernel.
//!   `table!(callback)` hands them over with the `lazy` ones, so a recording keeps them whole
//!   and a replay runs the backend's kernel (graph capture); `table!(callback, decomposed)`
//!   leaves them out, so the default body records their parts (`Fusion<B>`, whose fusers see
//!   the parts).
//! - `lazy` operations give a rule (a closure over a [`crate::RuleCtx`], reading the recorded
//!   arguments by name) computing the output's [`crate::TensorSpec`] (a pair for `FI`/`II`);
//!   they are queued and run later. `eager` operations have outputs whose shape is costly to
//!   predict: recording one runs the queue and the operation at once.

mod bool;
mod float;
mod int;
mod module;
