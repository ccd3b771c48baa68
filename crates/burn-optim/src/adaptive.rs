//! The bias-corrected moment estimates shared by Adam and AdamW (Kingma & Ba, 2015), with
//! the AMSGrad variant (Reddi et al., 2018).

use crate::state::ParamState;
use crate::validate::{non_negative, unit_interval};
use burn::tensor::Tensor;

/// The names of the state tensors.
const MOMENT_1: &str = "moment_1";
const MOMENT_2: &str = "moment_2";
const MAX_MOMENT_2: &str = "max_moment_2";

/// Adam's moments: with `t` the parameter's step count (from 1) and `g` the gradient,
///
/// - `m ← β₁·m + (1 − β₁)·g`, `v ← β₂·v + (1 − β₂)·g²` (both start at 0);
/// - with AMSGrad, `v̄ ← max(v̄, v)` is used in place of `v`;
/// - the direction is `m̂ / (√v̂ + ε)` with `m̂ = m / (1 − β₁ᵗ)` and `v̂ = v / (1 − β₂ᵗ)`
///   (ε outside the square root, as PyTorch).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AdaptiveMomentum {
    pub(crate) beta_1: f32,
    pub(crate) beta_2: f32,
    pub(crate) epsilon: f32,
    pub(crate) amsgrad: bool,
}

impl AdaptiveMomentum {
    /// The moments with these hyper-parameters, checked (naming `config` in the panic).
    pub(crate) fn new(config: &str, beta_1: f32, beta_2: f32, epsilon: f32, amsgrad: bool) -> Self {
        unit_interval(config, "beta_1", beta_1.into());
        unit_interval(config, "beta_2", beta_2.into());
        non_negative(config, "epsilon", epsilon.into());
        Self {
            beta_1,
            beta_2,
            epsilon,
            amsgrad,
        }
    }

    /// The update direction `m̂ / (√v̂ + ε)` from `grad`, updating the moments in `state`.
    pub(crate) fn direction<const D: usize>(
        &self,
        grad: Tensor<D>,
        state: &mut ParamState,
    ) -> Tensor<D> {
        let (beta_1, beta_2) = (f64::from(self.beta_1), f64::from(self.beta_2));
        let first = grad.clone().mul_scalar(1.0 - beta_1);
        let m = match state.take::<D>(MOMENT_1) {
            Some(m) => m.mul_scalar(beta_1) + first,
            None => first,
        };
        let second = grad.square().mul_scalar(1.0 - beta_2);
        let v = match state.take::<D>(MOMENT_2) {
            Some(v) => v.mul_scalar(beta_2) + second,
            None => second,
        };
        state.set(MOMENT_1, m.clone());
        state.set(MOMENT_2, v.clone());
        let v = if self.amsgrad {
            let max = match state.take::<D>(MAX_MOMENT_2) {
                Some(max) => max.max_pair(v),
                None => v,
            };
            state.set(MAX_MOMENT_2, max.clone());
            max
        } else {
            v
        };

        let t = i32::try_from(state.step()).unwrap_or(i32::MAX);
        let correction_1 = 1.0 - beta_1.powi(t);
        let correction_2 = 1.0 - beta_2.powi(t);
        let denominator = v
            .sqrt()
            .mul_scalar(correction_2.sqrt().recip())
            .add_scalar(self.epsilon);
        (m / denominator).mul_scalar(correction_1.recip())
    }
}
