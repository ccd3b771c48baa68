//! What cannot be captured or replayed is a typed error, never a wrong result.

use burn::tensor::capture::CaptureError;
use burn::tensor::{DType, FloatDType, Tensor};
use burn_backend_tests::Env;

#[test]
fn a_data_dependent_shape_stops_the_capture() {
    let device = crate::device();
    let env = Env::new(device.clone());
    let example = env.float::<1>(&env.random(&[6], -1.0, 1.0, 1));
    let err = device
        .capture(&example, |x: Tensor<1>| x.greater_elem(0.0).argwhere())
        .unwrap_err();
    match err {
        CaptureError::Unsupported { operation, .. } => assert_eq!(operation, "bool_argwhere"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn reading_inside_the_closure_stops_the_capture() {
    let device = crate::device();
    let env = Env::new(device.clone());
    let example = env.float::<1>(&env.random(&[3], -1.0, 1.0, 2));
    let err = device
        .capture(&example, |x: Tensor<1>| {
            let scale = (x.clone().sum().into_scalar().to_f64()) as f32;
            x * scale
        })
        .unwrap_err();
    assert!(
        matches!(&err, CaptureError::Unsupported { operation, .. } if operation == "float_into_data"),
        "{err:?}"
    );
    assert!(err.to_string().contains("float_into_data"), "{err}");
}

#[test]
fn replay_refuses_inputs_of_another_shape_or_dtype() {
    let device = crate::device();
    let env = Env::new(device.clone());
    let example = env.float::<2>(&env.random(&[2, 3], -1.0, 1.0, 3));
    let graph = device.capture(&example, |x: Tensor<2>| x * 2.0).unwrap();
    let wrong = Tensor::<2>::zeros([3, 2], &device);
    match graph.replay(wrong) {
        Err(CaptureError::InputMismatch {
            index,
            expected,
            got,
        }) => {
            assert_eq!(index, 0);
            assert_eq!(expected.0, vec![2, 3]);
            assert_eq!(got.0, vec![3, 2]);
        }
        other => panic!("expected InputMismatch, got {other:?}"),
    }
    // The same shape in another float dtype.
    let other_dtype = if example.dtype() == DType::F64 {
        FloatDType::F32
    } else {
        FloatDType::F64
    };
    if device.supports_dtype(other_dtype.into()) {
        let cast = Tensor::<2>::zeros([2, 3], &device).cast(other_dtype);
        assert!(
            matches!(
                graph.replay(cast),
                Err(CaptureError::InputMismatch { index: 0, .. })
            ),
            "a replay input of another dtype is refused"
        );
    }
}
