//! The decorator's bookkeeping on the CPU backend: laziness, plan caching, streams, reads in
//! the middle of a queue, buffer release and last-use statuses.

use crate::plan::{FusedExecution, Fuser};
use crate::{ExecutionContext, Fusion, FusionBackend, stats};
use burn_backend::ops::{BoolTensorOps, FloatTensorOps};
use burn_backend::{Scalar, TensorData, TensorMetadata, read_sync};
use burn_flex::{Flex, FlexDevice};
use burn_ir::{FloatOperationIr, OperationIr, TensorStatus};
use std::sync::{Arc, Mutex};

type F = Fusion<Flex>;

/// The tests share one device and read its statistics: they run one at a time.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Every operation a test fuser saw, in order.
static SEEN: Mutex<Vec<OperationIr>> = Mutex::new(Vec::new());

/// Takes runs of float arithmetic and runs them one by one (the planner's behaviour is what is
/// tested, not a kernel).
struct ArithmeticFuser(usize);

impl Fuser<Flex> for ArithmeticFuser {
    fn accept(&mut self, op: &OperationIr) -> bool {
        let ok = matches!(
            op,
            OperationIr::Float(
                FloatOperationIr::Add { .. }
                    | FloatOperationIr::Mul { .. }
                    | FloatOperationIr::AddScalar { .. }
                    | FloatOperationIr::MulScalar { .. }
                    | FloatOperationIr::Exp { .. }
            )
        );
        if ok {
            self.0 += 1;
        }
        ok
    }

    fn build(&self) -> Option<Arc<dyn FusedExecution<Flex>>> {
        Some(Arc::new(OneByOne))
    }

    fn reset(&mut self) {
        self.0 = 0;
    }
}

struct OneByOne;

impl FusedExecution<Flex> for OneByOne {
    fn execute(&self, ops: &[OperationIr], ctx: &mut ExecutionContext<Flex>) {
        SEEN.lock().unwrap().extend(ops.iter().cloned());
        for op in ops {
            crate::ops::execute(op, ctx, true);
        }
    }
}

impl FusionBackend for Flex {
    fn fusers(_device: &FlexDevice) -> Vec<Box<dyn Fuser<Self>>> {
        vec![Box::new(ArithmeticFuser(0))]
    }
}

fn tensor(
    values: &[f32],
    shape: [usize; 2],
) -> <F as burn_backend::BackendTypes>::FloatTensorPrimitive {
    F::float_from_data(TensorData::new(values.to_vec(), shape), &FlexDevice)
}

fn values(t: <F as burn_backend::BackendTypes>::FloatTensorPrimitive) -> Vec<f32> {
    read_sync(F::float_into_data(t))
        .unwrap()
        .to_vec::<f32>()
        .unwrap()
}

#[test]
fn chain_matches_the_backend_and_runs_on_read() {
    let _serial = serial();
    let a = tensor(&[0.5, -1.0, 2.0, 0.0], [2, 2]);
    let b = tensor(&[1.0, 2.0, -0.5, 3.0], [2, 2]);
    let c = tensor(&[0.25, 0.5], [1, 2]);
    let before = stats::<Flex>(&FlexDevice);
    let out = F::float_exp(F::float_add(F::float_mul(a, b), c));
    assert_eq!(out.shape().dims.to_vec(), vec![2, 2]);
    let queued = stats::<Flex>(&FlexDevice);
    assert_eq!(
        queued.fused_ops + queued.single_ops,
        before.fused_ops + before.single_ops
    );
    let got = values(out);
    let expected: Vec<f32> = [
        (0.5f32, 1.0, 0.25),
        (-1.0, 2.0, 0.5),
        (2.0, -0.5, 0.25),
        (0.0, 3.0, 0.5),
    ]
    .iter()
    .map(|&(a, b, c)| (a * b + c).exp())
    .collect();
    for (g, e) in got.iter().zip(&expected) {
        assert!(
            (g - e).abs() <= 1e-6 * e.abs().max(1.0),
            "{got:?} vs {expected:?}"
        );
    }
}

#[test]
fn last_use_is_read_write_and_a_shared_tensor_read_only() {
    let _serial = serial();
    let a = tensor(&[1.0, 2.0], [1, 2]);
    let kept = a.clone();
    SEEN.lock().unwrap().clear();
    // `a` has a live clone: read-only. The product is used once: read-write in the add.
    let out = F::float_add_scalar(F::float_mul_scalar(a, Scalar::from(3.0)), Scalar::from(1.0));
    let out_id = out.id();
    assert_eq!(values(out), vec![4.0, 7.0]);
    assert_eq!(values(kept), vec![1.0, 2.0]);
    let seen = SEEN.lock().unwrap().clone();
    let statuses: Vec<TensorStatus> = seen
        .iter()
        .flat_map(|op| op.tensors().into_iter().map(|t| t.status))
        .collect();
    // Find this test's two operations among those seen.
    let mine = seen
        .iter()
        .position(|op| op.tensors().iter().any(|t| t.id == out_id))
        .expect("the add was fused");
    let mul = seen[mine - 1].tensors();
    let add = seen[mine].tensors();
    assert_eq!(mul[0].status, TensorStatus::ReadOnly, "{statuses:?}");
    assert_eq!(add[0].status, TensorStatus::ReadWrite);
    assert_eq!(add[0].id, mul[1].id);
}

#[test]
fn repeated_step_hits_the_plan_cache() {
    let _serial = serial();
    // On its own thread: a stream of its own, so the queue holds only this loop's work.
    std::thread::spawn(|| {
        let start = stats::<Flex>(&FlexDevice);
        for step in 0..20 {
            let x = tensor(&[step as f32, 1.0, 2.0, 3.0], [2, 2]);
            let w = tensor(&[0.5, 0.5, 0.5, 0.5], [2, 2]);
            let y = F::float_exp(F::float_mul_scalar(
                F::float_add(x, w),
                Scalar::from(0.1 * step as f64),
            ));
            let s = F::float_sum(y);
            assert_eq!(values(s).len(), 1);
        }
        let end = stats::<Flex>(&FlexDevice);
        let hits = end.plan_hits - start.plan_hits;
        assert!(
            hits >= 19,
            "{hits} hits over 20 steps ({start:?} → {end:?})"
        );
    })
    .join()
    .unwrap();
}

#[test]
fn tensor_from_another_stream_is_ready_before_use() {
    let _serial = serial();
    let a = tensor(&[1.0, 2.0, 3.0, 4.0], [2, 2]);
    let produced = std::thread::spawn(move || F::float_add_scalar(a, Scalar::from(10.0)))
        .join()
        .unwrap();
    // Queued on the other thread's stream, consumed here.
    let doubled = F::float_mul_scalar(produced, Scalar::from(2.0));
    assert_eq!(values(doubled), vec![22.0, 24.0, 26.0, 28.0]);
}

#[test]
fn read_in_the_middle_of_a_queue() {
    let _serial = serial();
    let a = tensor(&[1.0, -2.0], [1, 2]);
    let x = F::float_add_scalar(a, Scalar::from(1.0));
    assert_eq!(values(x.clone()), vec![2.0, -1.0]);
    let y = F::float_mul(x.clone(), x);
    assert_eq!(values(y), vec![4.0, 1.0]);
}

#[test]
fn data_dependent_shapes_run_at_once() {
    let _serial = serial();
    let a = tensor(&[1.0, 0.0, 3.0, 0.0], [2, 2]);
    let mask = F::float_greater_elem(a, Scalar::from(0.5));
    let idx = F::bool_argwhere(mask);
    assert_eq!(idx.shape().dims.to_vec(), vec![2, 2]);
}

#[test]
fn dropped_tensors_are_released() {
    let _serial = serial();
    std::thread::spawn(|| {
        let client = crate::client::FusionClient::<Flex>::get(&FlexDevice);
        let a = tensor(&[1.0, 2.0], [1, 2]);
        let b = F::float_exp(a.clone());
        let c = F::float_add(a, b.clone());
        drop(b);
        assert_eq!(values(c), vec![1.0 + 1f32.exp(), 2.0 + 2f32.exp()]);
        let _ = client;
    })
    .join()
    .unwrap();
}
