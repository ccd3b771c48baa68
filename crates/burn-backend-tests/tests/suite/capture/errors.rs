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
            let scale = (x.clone().sum().into_scalar::<f64>()) as f32;
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
    if burn_backend_tests::supports(
        &device,
        &[other_dtype.into()],
        "capture replay with another dtype",
    ) {
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

/// The backend graph API (hardware launch graphs): a typed error where the runtime has none
/// (Flex, WGPU); where it has them (CUDA), a recorded product replays to the same values.
#[test]
// Where no compiled backend captures graphs, the replay branch cannot be reached.
#[allow(unreachable_code, unused_variables)]
fn the_backend_graph_api_is_a_typed_error_where_unsupported() {
    use burn::backend::{Backend, Dispatch};
    use burn::tensor::ExecutionError;
    let device = crate::device();
    let dispatch = device.dispatch();
    if let Err(err) = Dispatch::graph_prepare(dispatch) {
        assert!(matches!(err, ExecutionError::Unsupported { .. }), "{err:?}");
        return;
    }
    let x = Tensor::<2>::ones([8, 8], &device);
    let warm = x.clone().matmul(x.clone());
    device.sync().unwrap();
    drop(warm);
    match Dispatch::graph_start_capture(dispatch) {
        Err(err) => assert!(matches!(err, ExecutionError::Unsupported { .. }), "{err:?}"),
        Ok(()) => {
            let y = x.clone().matmul(x.clone());
            let graph = Dispatch::graph_stop_capture(dispatch).expect("the capture closes");
            // SAFETY: `x` and `y`, the only buffers the graph uses, outlive the replay, and
            // nothing else runs on the device meanwhile.
            unsafe { Dispatch::graph_replay(dispatch, &graph) }.expect("the graph replays");
            let values = y.into_data().to_vec::<f32>().unwrap();
            assert!(values.iter().all(|v| *v == 8.0), "{values:?}");
        }
    }
}

#[test]
fn tensors_of_two_captures_do_not_mix() {
    let device = crate::device();
    let example = Tensor::<1>::zeros([3], &device);
    let mut leaked = None;
    let _first = device
        .capture(&example, |x: Tensor<1>| {
            leaked = Some(x.clone());
            x + 1.0
        })
        .unwrap();
    let err = device
        .capture(&example, |x: Tensor<1>| x + leaked.clone().unwrap())
        .unwrap_err();
    assert!(matches!(err, CaptureError::Unsupported { .. }), "{err:?}");
}
