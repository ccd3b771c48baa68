//! Convolution gradients checked by the adjoint identities
//! `<conv(x; w), g> = <x, ∂x(g)> = <w, ∂w(x, g)>` in float64: the backend's (through Dispatch)
//! and the contract's composed defaults (`burn_backend::ops::conv_grad`).

use burn_backend::ops::{ConvOptions, ConvTransposeOptions, FloatTensorOps, ModuleOps, conv_grad};
use burn_backend::{FloatDType, TensorData, read_sync};
use burn_dispatch::{Dispatch, DispatchDevice, DispatchTensor};

fn tensor(shape: [usize; 4], seed: f64) -> (DispatchTensor, Vec<f64>) {
    let count: usize = shape.iter().product();
    let values: Vec<f64> = (0..count)
        .map(|i| ((i as f64 + seed) * 0.731).sin())
        .collect();
    let device = DispatchDevice::default();
    let data = TensorData::new(values.clone(), shape);
    (Dispatch::float_from_data(data, &device), values)
}

fn values(tensor: DispatchTensor) -> Vec<f64> {
    let data = read_sync(Dispatch::float_into_data(Dispatch::float_cast(
        tensor,
        FloatDType::F64,
    )));
    data.unwrap().to_vec::<f64>().unwrap()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len(), "dot: lengths differ");
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn assert_close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0),
        "{what}: {a} vs {b}"
    );
}

#[test]
fn conv2d_gradients_satisfy_the_adjoint_identities() {
    for (groups, stride, padding, dilation) in
        [(1, [1, 1], [0, 0], [1, 1]), (2, [2, 1], [1, 2], [2, 1])]
    {
        let options = ConvOptions::new(stride, padding, dilation, groups);
        let (x, xv) = tensor([2, 4, 7, 6], 0.5);
        let (w, wv) = tensor([6, 4 / groups, 3, 2], 1.5);
        let y = Dispatch::conv2d(x.clone(), w.clone(), None, options);
        let y_shape = burn_backend::TensorMetadata::shape(&y);
        let (g, gv) = tensor(y_shape.dims::<4>(), 2.5);
        let yv = values(y);
        let dx = values(Dispatch::conv2d_x_backward(
            x.clone(),
            w.clone(),
            g.clone(),
            options,
        ));
        let dw = values(Dispatch::conv2d_weight_backward(
            x.clone(),
            w.clone(),
            g.clone(),
            options,
        ));
        assert_close(dot(&yv, &gv), dot(&xv, &dx), "conv2d x gradient");
        assert_close(dot(&yv, &gv), dot(&wv, &dw), "conv2d weight gradient");
        let dx = conv_grad::conv2d_x_backward::<Dispatch>(x.clone(), w.clone(), g.clone(), options);
        let dw = conv_grad::conv2d_weight_backward::<Dispatch>(x, w, g.clone(), options);
        assert_close(
            dot(&yv, &gv),
            dot(&xv, &values(dx)),
            "composed conv2d x gradient",
        );
        assert_close(
            dot(&yv, &gv),
            dot(&wv, &values(dw)),
            "composed conv2d weight gradient",
        );
        let composed_db = values(conv_grad::conv_bias_backward::<Dispatch>(g.clone()));
        let db = values(Dispatch::conv_bias_backward(g));
        for (got, want) in db.iter().zip(&composed_db) {
            assert_close(*got, *want, "composed conv bias gradient");
        }
        let expected: Vec<f64> = (0..6)
            .map(|c| {
                gv.chunks(y_shape[2] * y_shape[3])
                    .skip(c)
                    .step_by(6)
                    .flatten()
                    .sum()
            })
            .collect();
        for (got, want) in db.iter().zip(&expected) {
            assert_close(*got, *want, "conv bias gradient");
        }
    }
}

#[test]
fn conv_transpose2d_gradients_satisfy_the_adjoint_identities() {
    let options = ConvTransposeOptions::new([2, 2], [1, 0], [1, 0], [1, 2], 2);
    let (x, xv) = tensor([2, 4, 5, 4], 0.25);
    let (w, wv) = tensor([4, 3, 3, 2], 1.25);
    let y = Dispatch::conv_transpose2d(x.clone(), w.clone(), None, options);
    let y_shape = burn_backend::TensorMetadata::shape(&y);
    let (g, gv) = tensor(y_shape.dims::<4>(), 3.25);
    let yv = values(y);
    let dx = values(Dispatch::conv_transpose2d_x_backward(
        w.clone(),
        g.clone(),
        options,
    ));
    let dw = Dispatch::conv_transpose2d_weight_backward(x.clone(), w.clone(), g.clone(), options);
    assert_close(dot(&yv, &gv), dot(&xv, &dx), "conv_transpose2d x gradient");
    assert_close(
        dot(&yv, &gv),
        dot(&wv, &values(dw)),
        "conv_transpose2d weight gradient",
    );
    let dw = conv_grad::conv_transpose2d_weight_backward::<Dispatch>(x, w, g, options);
    assert_close(
        dot(&yv, &gv),
        dot(&wv, &values(dw)),
        "composed conv_transpose2d weight gradient",
    );
}
