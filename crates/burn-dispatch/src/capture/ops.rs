//! The operations of `Capture`, generated from `burn-ir`'s operation tables: each records its
//! IR with the output's shape and dtype from the table's rule. Operations whose output shape
//! depends on the data (the tables' `eager` ones) and reads stop the capture with an error.

use super::backend::{Capture, CaptureDevice};
use super::recording::{Recording, unsupported};
use super::tensor::CaptureTensor;
use crate::Dispatch;
use burn_backend::ops::*;
use burn_backend::{
    ConvOptions, ConvTransposeOptions, DType, Distribution, ExecutionError, FloatDType,
    IndexingUpdateOp, IntDType, InterpolateOptions, Scalar, Shape, Slice, TensorData,
};
use burn_ir::{
    ActivationOperationIr, BoolOperationIr, FloatOperationIr, IntOperationIr, ModuleOperationIr,
    RuleCtx, rules,
};
use core::ops::Range;
use std::sync::Arc;

/// Stops the capture when an operation combines tensors of two recordings.
fn same_recording(first: &Recording, other: &Recording) {
    if first.id() != other.id() {
        unsupported(
            "capture",
            "an operation combines tensors of two captures; a graph's tensors live in its closure",
        );
    }
}

/// Sets `$slot` to the recording of the argument, when it is the first to name one; stops the
/// capture when arguments come from two recordings.
macro_rules! capture_recording {
    (F; $x:expr, $slot:ident) => { match &$slot {
        None => $slot = Some($x.recording.clone()),
        Some(first) => same_recording(first, &$x.recording),
    } };
    (I; $x:expr, $slot:ident) => { capture_recording!(F; $x, $slot) };
    (B; $x:expr, $slot:ident) => { capture_recording!(F; $x, $slot) };
    (OptF; $x:expr, $slot:ident) => { if let Some(t) = $x { capture_recording!(F; t, $slot) } };
    (OptB; $x:expr, $slot:ident) => { capture_recording!(OptF; $x, $slot) };
    (VecF; $x:expr, $slot:ident) => { if let Some(t) = $x.first() { capture_recording!(F; t, $slot) } };
    (VecI; $x:expr, $slot:ident) => { capture_recording!(VecF; $x, $slot) };
    (VecB; $x:expr, $slot:ident) => { capture_recording!(VecF; $x, $slot) };
    (Dev; $x:expr, $slot:ident) => { if $slot.is_none() { $slot = Some($x.recording.clone()); } };
    (Val $t:ty; $x:expr, $slot:ident) => {};
    (Slice $t:ty; $x:expr, $slot:ident) => {};
}

/// Writes the `Capture` trait methods of a table: lazy ones record, eager ones (output shape
/// known only by running) stop the capture.
macro_rules! capture_methods {
    ($Enum:ident, $Trait:ident, $group:literal;
     lazy { $( $LV:ident = $lname:ident ( $($la:ident : $lk:ident $([$lt:ty])?),* $(,)? ) -> $lout:ident => $rule:expr; )* }
     eager { $( $EV:ident = $ename:ident ( $($ea:ident : $ek:ident $([$et:ty])?),* $(,)? ) -> $eout:ident; )* }
    ) => {
        $(
            #[allow(unused_mut)]
            fn $lname($($la: burn_ir::record_arg_ty!($lk $($lt)?; CaptureTensor, CaptureDevice)),*) -> burn_ir::record_out_ty!($lout; CaptureTensor) {
                let mut recording: Option<Arc<Recording>> = None;
                $( capture_recording!($lk $($lt)?; &$la, recording); )*
                let recording = recording.expect(concat!(stringify!($lname), ": no tensor or device argument"));
                $( let $la = burn_ir::record_to_ir!($lk $($lt)?; $la); )*
                let ctx = RuleCtx { op: stringify!($lname), settings: recording.settings() };
                let out = burn_ir::record_out_ir!($lout; recording, ($rule)(&ctx));
                recording.record($Enum::$LV { $($la,)* out: out.clone() }.into());
                burn_ir::record_out_wrap!($lout; CaptureTensor, recording, out)
            }
        )*
        $(
            #[allow(unused_variables)]
            fn $ename($($ea: burn_ir::record_arg_ty!($ek $($et)?; CaptureTensor, CaptureDevice)),*) -> burn_ir::record_out_ty!($eout; CaptureTensor) {
                unsupported(
                    stringify!($ename),
                    "its output shape is known only by running it, so it cannot be recorded",
                )
            }
        )*
    };
}

/// The reads, uploads and device queries of one tensor kind: data becomes a constant of the
/// recording (uploaded to the base device once, at capture time); reads are refused.
macro_rules! capture_data_ops {
    ($from:ident, $into:ident, $device:ident, $to:ident) => {
        fn $from(data: TensorData, device: &CaptureDevice) -> CaptureTensor {
            let uploaded = Dispatch::$from(data, device.base());
            device.recording.constant(uploaded)
        }

        async fn $into(tensor: CaptureTensor) -> Result<TensorData, ExecutionError> {
            let _ = tensor;
            unsupported(
                stringify!($into),
                "a tensor being captured has no values yet; return it from the closure and \
                 read what the graph's replay gives",
            )
        }

        fn $device(tensor: &CaptureTensor) -> CaptureDevice {
            CaptureDevice::new(tensor.recording.clone())
        }

        fn $to(tensor: CaptureTensor, device: &CaptureDevice) -> CaptureTensor {
            if tensor.recording.id() != device.recording.id() {
                unsupported(stringify!($to), "a captured graph runs on one device");
            }
            tensor
        }
    };
}

impl FloatTensorOps<Self> for Capture {
    burn_ir::float_operations!(capture_methods);
    capture_data_ops!(
        float_from_data,
        float_into_data,
        float_device,
        float_to_device
    );
}

impl IntTensorOps<Self> for Capture {
    burn_ir::int_operations!(capture_methods);
    capture_data_ops!(int_from_data, int_into_data, int_device, int_to_device);
}

impl BoolTensorOps<Self> for Capture {
    burn_ir::bool_operations!(capture_methods);
    capture_data_ops!(bool_from_data, bool_into_data, bool_device, bool_to_device);
}

impl ModuleOps<Self> for Capture {
    burn_ir::module_operations!(capture_methods);

    fn max_pool2d_with_indices(
        _x: CaptureTensor,
        _kernel_size: [usize; 2],
        _stride: [usize; 2],
        _padding: [usize; 2],
        _dilation: [usize; 2],
        _ceil_mode: bool,
    ) -> MaxPool2dWithIndices<Self> {
        unsupported(
            "max_pool2d_with_indices",
            "the IR has no max pooling with indices yet",
        )
    }
}

impl ActivationOps<Self> for Capture {
    burn_ir::activation_operations!(capture_methods);
}
