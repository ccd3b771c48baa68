//! Replays against eager execution and the float64 reference.

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::{Bool, Device, Int, Tensor, activation};
use burn_backend_tests::{Env, RefArray};

/// A small MLP: many small operations, as in a served model's step.
#[derive(Module, Debug)]
struct Mlp {
    layers: Vec<Linear>,
}

impl Mlp {
    fn new(width: usize, depth: usize, device: &Device) -> Self {
        Self {
            layers: (0..depth)
                .map(|_| LinearConfig::new(width, width).init(device))
                .collect(),
        }
    }

    fn forward(&self, mut x: Tensor<2>) -> Tensor<2> {
        for layer in &self.layers {
            x = activation::relu(layer.forward(x));
        }
        activation::softmax(x, 1)
    }
}

fn assert_same<const D: usize>(op: &str, replayed: Tensor<D>, eager: Tensor<D>) {
    let (r, e) = (replayed.into_data(), eager.into_data());
    assert_eq!(r.shape, e.shape, "{op}: shape");
    assert_eq!(r.dtype, e.dtype, "{op}: dtype");
    let (r, e): (Vec<f64>, Vec<f64>) = (r.iter::<f64>().collect(), e.iter::<f64>().collect());
    // Bit for bit (NaNs included): the replay runs the operations eager execution ran.
    let same = r.len() == e.len() && r.iter().zip(&e).all(|(a, b)| a.to_bits() == b.to_bits());
    assert!(
        same,
        "{op}: the replay differs from eager execution:\n{r:?}\n{e:?}"
    );
}

#[test]
fn captured_mlp_step_replays_like_eager() {
    let device = crate::device();
    let env = Env::new(device.clone());
    let model = Mlp::new(16, 6, &device);
    let example = env.float::<2>(&env.random(&[4, 16], -1.0, 1.0, 1));
    let step = device
        .capture(&example, |x| model.forward(x))
        .expect("an MLP step can be captured");
    // 6 × (matmul, bias add, relu) and the softmax's ops; nothing else.
    assert!(step.operations().len() >= 18, "{step:?}");
    assert_eq!(
        step.num_constants(),
        12,
        "weights and biases are the constants"
    );
    for seed in 2..5 {
        let x = env.float::<2>(&env.random(&[4, 16], -1.0, 1.0, seed));
        let replayed = step.replay(x.clone()).unwrap();
        assert_same("mlp", replayed, model.forward(x));
    }
}

#[test]
fn replay_matches_the_float64_reference() {
    let device = crate::device();
    let env = Env::new(device.clone());
    let shape = [3, 5];
    let (a, b, c) = (
        env.random(&shape, -1.0, 1.0, 10),
        env.random(&shape, -1.0, 1.0, 11),
        env.random(&shape, -1.0, 1.0, 12),
    );
    let example = (env.float::<2>(&a), env.float::<2>(&b), env.float::<2>(&c));
    let graph = device
        .capture(&example, |(a, b, c)| (a * b + c).exp())
        .unwrap();
    let (a, b, c) = (
        env.random(&shape, -1.0, 1.0, 20),
        env.random(&shape, -1.0, 1.0, 21),
        env.random(&shape, -1.0, 1.0, 22),
    );
    let got = graph
        .replay((env.float(&a), env.float(&b), env.float(&c)))
        .unwrap();
    let expected = a.zip(&b, |x, y| x * y).zip(&c, |x, y| (x + y).exp());
    env.check("replay exp(a*b+c)", got, &expected, 4.0);
}

#[test]
fn outputs_of_every_kind_and_constants_made_inside() {
    let device = crate::device();
    let env = Env::new(device.clone());
    let example = env.float::<2>(&env.random(&[2, 6], -1.0, 1.0, 30));
    let run = |x: Tensor<2>| -> (Tensor<2>, Tensor<2, Int>, Tensor<2, Bool>, Tensor<1>) {
        let offset = Tensor::<2>::ones([2, 6], &x.device()) * 0.25;
        let shifted = x + offset;
        let index = shifted.clone().argmax(1);
        let positive = shifted.clone().greater_elem(0.0);
        let total = shifted.clone().sum();
        (shifted, index, positive, total)
    };
    let graph = device.capture(&example, run).unwrap();
    for seed in 31..33 {
        let x = env.float::<2>(&env.random(&[2, 6], -1.0, 1.0, seed));
        let (shifted, index, positive, total) = graph.replay(x.clone()).unwrap();
        let (e_shifted, e_index, e_positive, e_total) = run(x);
        assert_same("shifted", shifted, e_shifted);
        assert_same("total", total, e_total);
        assert_eq!(index.into_data(), e_index.into_data(), "argmax");
        assert_eq!(positive.into_data(), e_positive.into_data(), "greater_elem");
    }
}

#[test]
fn an_input_returned_unchanged_and_a_vec_of_inputs() {
    let device = crate::device();
    let env = Env::new(device.clone());
    let xs: Vec<Tensor<1>> = (0..3)
        .map(|s| env.float::<1>(&env.random(&[4], -1.0, 1.0, 40 + s)))
        .collect();
    let graph = device
        .capture(&xs, |xs: Vec<Tensor<1>>| {
            let sum = xs[0].clone() + xs[1].clone() + xs[2].clone();
            (xs[0].clone(), sum)
        })
        .unwrap();
    let ys: Vec<Tensor<1>> = (0..3)
        .map(|s| env.float::<1>(&env.random(&[4], -1.0, 1.0, 50 + s)))
        .collect();
    let (first, sum) = graph.replay(ys.clone()).unwrap();
    assert_same("identity", first, ys[0].clone());
    assert_same("sum", sum, ys[0].clone() + ys[1].clone() + ys[2].clone());
}

#[test]
fn a_same_shape_reshape_returns_the_input() {
    // A reshape or unsqueeze to the tensor's own shape is the tensor itself: the captured
    // graph's output is then its input, replayed as such.
    let device = crate::device();
    let env = Env::new(device.clone());
    let example = env.float::<2>(&env.random(&[4, 3], -1.0, 1.0, 60));
    let graph = device
        .capture(&example, |x: Tensor<2>| {
            (
                x.clone().reshape([4, 3]).unsqueeze::<2>(),
                x.reshape([4, -1]) * 2.0,
            )
        })
        .unwrap();
    let y = env.float::<2>(&env.random(&[4, 3], -1.0, 1.0, 61));
    let (same, doubled) = graph.replay(y.clone()).unwrap();
    assert_same("same-shape reshape", same, y.clone());
    assert_same("same-shape reshape, then scaled", doubled, y * 2.0);
}

#[test]
fn a_graph_captured_on_flex_replays_on_the_device_under_test() {
    let device = crate::device();
    let env = Env::new(device.clone());
    let flex = Device::flex();
    let weight = Tensor::<2>::from_floats([[1.0, -2.0], [0.5, 3.0]], &flex);
    let example = Tensor::<2>::zeros([3, 2], &flex);
    let graph = flex
        .capture(&example, |x: Tensor<2>| {
            activation::sigmoid(x.matmul(weight.clone()))
        })
        .unwrap();
    let x = env.random(&[3, 2], -1.0, 1.0, 60);
    let got = graph.replay(env.float::<2>(&x)).unwrap();
    assert_eq!(
        got.device(),
        device,
        "the replay runs on the inputs' device"
    );
    let w = RefArray::new(&[2, 2], vec![1.0, -2.0, 0.5, 3.0]);
    let expected = x.matmul(&w).map(|v| 1.0 / (1.0 + (-v).exp()));
    env.check("replay on another device", got, &expected, 4.0);
}

#[test]
fn replay_on_an_autodiff_device_records_gradients() {
    let device = crate::device().autodiff();
    let env = Env::new(device.clone());
    let w = env.random(&[3, 2], -1.0, 1.0, 70);
    let weight = env.float::<2>(&w);
    let example = env.float::<2>(&env.random(&[4, 3], -1.0, 1.0, 71));
    let graph = device
        .capture(&example, |x: Tensor<2>| {
            (x.matmul(weight.clone()).tanh()).sum()
        })
        .unwrap();
    let x_ref = env.random(&[4, 3], -1.0, 1.0, 72);
    let x = env.float::<2>(&x_ref).require_grad();
    let loss = graph.replay(x.clone()).unwrap();
    let grads = loss.backward();
    let replayed = x
        .grad(&grads)
        .expect("the input is tracked through the replay");

    let x_eager = env.float::<2>(&x_ref).require_grad();
    let eager_loss = (x_eager.clone().matmul(weight.clone()).tanh()).sum();
    let eager = x_eager.grad(&eager_loss.backward()).unwrap();
    assert_same("gradient through a replay", replayed, eager);
}

#[test]
fn captured_convolutions_and_pools_replay_like_eager() {
    use burn::tensor::module::{avg_pool2d, conv_transpose2d, conv2d, embedding, max_pool2d};
    use burn::tensor::ops::{AvgPoolOptions, ConvOptions, ConvTransposeOptions, MaxPoolOptions};
    let device = crate::device();
    let env = Env::new(device.clone());
    let weight = env.float::<4>(&env.random(&[4, 3, 3, 3], -0.5, 0.5, 80));
    let bias = env.float::<1>(&env.random(&[4], -0.5, 0.5, 81));
    let up = env.float::<4>(&env.random(&[4, 2, 3, 3], -0.5, 0.5, 82));
    let table = env.float::<2>(&env.random(&[5, 3], -1.0, 1.0, 83));
    let ids = env.int::<2>(&RefArray::new(&[1, 2], vec![4.0, 1.0]));
    let run = |x: Tensor<4>| -> (Tensor<2>, Tensor<3>) {
        let y = conv2d(
            x,
            weight.clone(),
            Some(bias.clone()),
            ConvOptions::new([2, 2], [1, 1], [1, 1], 1),
        );
        let y = max_pool2d(y, MaxPoolOptions::new([2, 2]).with_ceil_mode(true));
        let pool = AvgPoolOptions::new([2, 2])
            .with_stride([1, 1])
            .with_padding([1, 1]);
        let y = avg_pool2d(y, pool.with_ceil_mode(true));
        let y = conv_transpose2d(
            y,
            up.clone(),
            None,
            ConvTransposeOptions::new([2, 2], [1, 1], [1, 1], [1, 1], 1),
        );
        let rows = embedding(table.clone(), ids.clone());
        (activation::log_softmax(y.flatten(1, 3), 1), rows)
    };
    let example = env.float::<4>(&env.random(&[2, 3, 9, 9], -1.0, 1.0, 84));
    let graph = device
        .capture(&example, run)
        .expect("convolutions and pools record");
    let x = env.float::<4>(&env.random(&[2, 3, 9, 9], -1.0, 1.0, 85));
    let (y, rows) = graph.replay(x.clone()).unwrap();
    let (e_y, e_rows) = run(x);
    assert_same("conv/pool chain", y, e_y);
    assert_eq!(rows.dims(), [1, 2, 3]);
    assert_same("embedding", rows, e_rows);
}

#[test]
fn a_training_step_with_its_backward_pass_is_captured() {
    let device = crate::device().autodiff();
    let env = Env::new(device.clone());
    let target = env.float::<2>(&env.random(&[4, 2], -1.0, 1.0, 90));
    // Inputs: the batch and the weight; outputs: the loss and the weight's gradient.
    let step = |(x, w): (Tensor<2>, Tensor<2>)| -> (Tensor<1>, Tensor<2>) {
        let w = w.require_grad();
        let loss = (x.matmul(w.clone()).tanh() - target.clone())
            .powi_scalar(2)
            .mean();
        let grads = loss.backward();
        let grad = w.grad(&grads).expect("the weight is tracked");
        (loss.inner(), grad)
    };
    let example = (
        env.float::<2>(&env.random(&[4, 3], -1.0, 1.0, 91)),
        env.float::<2>(&env.random(&[3, 2], -1.0, 1.0, 92)),
    );
    let graph = device
        .capture(&example, step)
        .expect("forward and backward record");
    for seed in [93, 95] {
        let x = env.float::<2>(&env.random(&[4, 3], -1.0, 1.0, seed));
        let w = env.float::<2>(&env.random(&[3, 2], -1.0, 1.0, seed + 1));
        let (loss, grad) = graph.replay((x.clone(), w.clone())).unwrap();
        let (e_loss, e_grad) = step((x, w));
        assert_same("captured loss", loss, e_loss.clone());
        assert_same("captured gradient", grad, e_grad.clone());
        // The gradient's operations are in the graph: it replays on the plain device too.
        let plain = crate::device();
        let (x, w) = (
            Env::new(plain.clone()).float::<2>(&env.random(&[4, 3], -1.0, 1.0, seed)),
            Env::new(plain.clone()).float::<2>(&env.random(&[3, 2], -1.0, 1.0, seed + 1)),
        );
        let (loss, grad) = graph.replay((x, w)).unwrap();
        assert!(!loss.device().is_autodiff());
        assert_same("captured loss, plain device", loss, e_loss);
        assert_same("captured gradient, plain device", grad, e_grad);
    }
}

#[test]
fn one_dim_convolutions_pools_and_attention_replay_like_eager() {
    use burn::tensor::module::{
        adaptive_avg_pool1d, attention, avg_pool1d, conv_transpose1d, conv1d, max_pool1d,
    };
    use burn::tensor::ops::{
        AttentionModuleOptions, AvgPoolOptions, ConvOptions, ConvTransposeOptions, MaxPoolOptions,
    };
    let device = crate::device();
    let env = Env::new(device.clone());
    let weight = env.float::<3>(&env.random(&[4, 3, 3], -0.5, 0.5, 100));
    let up = env.float::<3>(&env.random(&[4, 2, 3], -0.5, 0.5, 101));
    let (k, v) = (
        env.float::<4>(&env.random(&[1, 2, 5, 4], -1.0, 1.0, 102)),
        env.float::<4>(&env.random(&[1, 2, 5, 3], -1.0, 1.0, 103)),
    );
    let run = |(x, q): (Tensor<3>, Tensor<4>)| -> (Tensor<3>, Tensor<4>) {
        let y = conv1d(x, weight.clone(), None, ConvOptions::new([2], [1], [1], 1));
        let y = max_pool1d(y, MaxPoolOptions::new([2]).with_stride([1]));
        let pool = AvgPoolOptions::new([2])
            .with_padding([1])
            .with_count_include_pad(false);
        let y = avg_pool1d(y, pool.with_ceil_mode(true));
        let y = adaptive_avg_pool1d(y, 3);
        let y = conv_transpose1d(
            y,
            up.clone(),
            None,
            ConvTransposeOptions::new([2], [1], [0], [1], 1),
        );
        let options = AttentionModuleOptions {
            is_causal: true,
            ..Default::default()
        };
        (y, attention(q, k.clone(), v.clone(), None, None, options))
    };
    let inputs = |seed| {
        (
            env.float::<3>(&env.random(&[2, 3, 11], -1.0, 1.0, seed)),
            env.float::<4>(&env.random(&[1, 2, 5, 4], -1.0, 1.0, seed + 1)),
        )
    };
    let graph = device
        .capture(&inputs(104), run)
        .expect("1-d ops and attention record");
    let (y, a) = graph.replay(inputs(106)).unwrap();
    let (e_y, e_a) = run(inputs(106));
    assert_same("1-d conv/pool chain", y, e_y);
    assert_same("attention", a, e_a);
}

#[test]
fn an_outside_tensor_first_in_a_cat_becomes_a_constant() {
    let device = crate::device();
    let outside = Tensor::<1, burn::tensor::Int>::from_ints([7, 8], &device);
    let example = Tensor::<1, burn::tensor::Int>::from_ints([0, 0, 0], &device);
    let graph = device
        .capture(&example, |x| Tensor::cat(vec![outside.clone(), x], 0))
        .unwrap();
    let got = graph.replay(Tensor::from_ints([1, 2, 3], &device)).unwrap();
    assert_eq!(
        got.into_data().iter::<i64>().collect::<Vec<_>>(),
        vec![7, 8, 1, 2, 3]
    );
}

#[test]
fn layer_norm_is_recorded_whole_and_replays_like_eager() {
    use burn::tensor::module::layer_norm;
    let device = crate::device();
    let env = Env::new(device.clone());
    let gamma = env.float::<1>(&env.random(&[6], 0.5, 1.5, 110));
    let beta = env.float::<1>(&env.random(&[6], -1.0, 1.0, 111));
    let run = |x: Tensor<3>| layer_norm(x, gamma.clone(), Some(beta.clone()), 1e-5);
    let inputs = |seed| env.float::<3>(&env.random(&[2, 4, 6], -2.0, 2.0, seed));
    let graph = device
        .capture(&inputs(112), run)
        .expect("layer_norm records");
    assert_same(
        "layer_norm",
        graph.replay(inputs(113)).unwrap(),
        run(inputs(113)),
    );
}

#[test]
fn group_norm_is_recorded_whole_and_replays_like_eager() {
    use burn::tensor::module::group_norm;
    let device = crate::device();
    let env = Env::new(device.clone());
    let gamma = env.float::<1>(&env.random(&[6], 0.5, 1.5, 114));
    let beta = env.float::<1>(&env.random(&[6], -1.0, 1.0, 115));
    let run = |x: Tensor<4>| group_norm(x, gamma.clone(), beta.clone(), 3, 1e-5);
    let inputs = |seed| env.float::<4>(&env.random(&[2, 6, 3, 4], -2.0, 2.0, seed));
    let graph = device
        .capture(&inputs(116), run)
        .expect("group_norm records");
    assert_same(
        "group_norm",
        graph.replay(inputs(117)).unwrap(),
        run(inputs(117)),
    );
}
