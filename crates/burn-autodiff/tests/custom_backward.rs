//! A custom operation with a hand-written backward, written from outside the crate with
//! public items only: `swish(x) = x * sigmoid(x)` in one forward op, checked against the
//! gradient of the same function composed of built-in ops, under both checkpoint strategies.

use burn_autodiff::checkpoint::strategy::{
    BalancedCheckpointing, CheckpointStrategy, NoCheckpointing,
};
use burn_autodiff::checkpoint::{Checkpointer, Saved};
use burn_autodiff::ops::{Backward, Ops, OpsKind, unary};
use burn_autodiff::{Autodiff, AutodiffTensor, Gradients};
use burn_backend::ops::{ActivationOps, FloatTensorOps};
use burn_backend::{Backend, TensorData, read_sync};
use burn_flex::Flex;

/// The backward rule: `d/dx x*s(x) = s + x * s * (1 - s)`.
#[derive(Debug)]
struct Swish;

impl<B: Backend> Backward<B, 1> for Swish {
    type State = Saved<B>;

    fn backward(self, ops: Ops<Saved<B>, 1>, grads: &mut Gradients, ckp: &mut Checkpointer<B>) {
        let x = ckp.retrieve(ops.state);
        unary::<B>(ops.parents, ops.node, grads, |grad| {
            let s = B::sigmoid(x.clone());
            let one_minus_s = B::float_add_scalar(B::float_neg(s.clone()), 1.0.into());
            let ds = B::float_mul(B::float_mul(x, s.clone()), one_minus_s);
            B::float_mul(grad, B::float_add(s, ds))
        });
    }
}

/// The forward op: computes on the inner backend, records `Swish` when `x` is tracked.
fn swish<B: Backend, C: CheckpointStrategy>(x: AutodiffTensor<B>) -> AutodiffTensor<B> {
    let out = B::float_mul(x.primitive().clone(), B::sigmoid(x.primitive().clone()));
    let retro_input = x.clone();
    match Swish
        .prepare::<C>([x.node()])
        .memory_bound()
        .retro_forward([&retro_input], |mut inputs| {
            let x = inputs.remove(0);
            B::float_mul(x.clone(), B::sigmoid(x))
        })
        .stateful()
    {
        OpsKind::Tracked(mut prep) => {
            let state = prep.checkpoint(&x);
            prep.finish(state, out)
        }
        OpsKind::UnTracked(prep) => prep.finish(out),
    }
}

fn values<B: Backend>(tensor: B::FloatTensorPrimitive) -> Vec<f64> {
    read_sync(B::float_into_data(tensor))
        .unwrap()
        .convert_dtype(burn_backend::DType::F64)
        .to_vec::<f64>()
        .unwrap()
}

/// The gradient of `sum(exp(swish(x)))` through the custom op and through the composition.
fn gradients<C: CheckpointStrategy>() -> (Vec<f64>, Vec<f64>) {
    type A<C> = Autodiff<Flex, C>;
    let data = TensorData::from([-2.0f64, -0.5, 0.0, 0.75, 3.0]);
    let device = Default::default();

    let x =
        AutodiffTensor::<Flex>::new(Flex::float_from_data(data.clone(), &device)).require_grad();
    let y = A::<C>::float_sum(A::<C>::float_exp(swish::<Flex, C>(x.clone())));
    let custom = values::<Flex>(x.grad(&y.backward()).unwrap());

    let x = AutodiffTensor::<Flex>::new(Flex::float_from_data(data, &device)).require_grad();
    let composed = A::<C>::float_mul(x.clone(), A::<C>::sigmoid(x.clone()));
    let y = A::<C>::float_sum(A::<C>::float_exp(composed));
    let reference = values::<Flex>(x.grad(&y.backward()).unwrap());
    (custom, reference)
}

fn assert_close(custom: &[f64], reference: &[f64]) {
    assert_eq!(custom.len(), reference.len());
    for (c, r) in custom.iter().zip(reference) {
        assert!(
            (c - r).abs() <= 1e-12 * (1.0 + r.abs()),
            "{custom:?} vs {reference:?}"
        );
    }
}

#[test]
fn custom_backward_matches_the_composed_gradient() {
    let (custom, reference) = gradients::<NoCheckpointing>();
    assert_close(&custom, &reference);
}

#[test]
fn custom_backward_matches_under_balanced_checkpointing() {
    let (custom, reference) = gradients::<BalancedCheckpointing>();
    assert_close(&custom, &reference);
}

#[test]
fn untracked_inputs_record_nothing() {
    let x = AutodiffTensor::<Flex>::new(Flex::float_from_data(
        TensorData::from([1.0f32, 2.0]),
        &Default::default(),
    ));
    let y = swish::<Flex, NoCheckpointing>(x);
    assert!(!y.is_tracked());
    assert!(y.backward().is_empty());
}
