//! Parameter mappers the way a Burn 0.23 user attaches them: `save_mapper` transforms what a
//! record holds, `load_mapper` what a record puts back, `init_mapper` a parameter's first value;
//! plus the helpers of `burn::tensor` a port leans on (`TensorContainer`,
//! `calculate_matmul_output`, `check_closeness`).

use burn::module::{Module, Param};
use burn::prelude::*;
use burn::tensor::container::TensorContainer;
use burn::tensor::{MetadataError, calculate_matmul_output, check_closeness};

#[derive(Module, Debug)]
struct Scaled {
    weight: Param<Tensor<1>>,
}

fn values(t: Tensor<1>) -> Vec<f32> {
    t.into_data().to_vec::<f32>().unwrap()
}

#[test]
fn records_hold_saved_values_and_loads_map_them_back() {
    let device = Device::default();
    let record = || {
        let weight = Param::from_tensor(Tensor::<1>::from_data([1.0, -2.0], &device))
            .save_mapper(|t| t.mul_scalar(2.0));
        Scaled { weight }.into_record()
    };

    // A fresh module whose load mapper undoes the save mapper gets the original values.
    let fresh = Scaled {
        weight: Param::from_tensor(Tensor::<1>::zeros([2], &device))
            .load_mapper(|t| t.div_scalar(2.0)),
    };
    let loaded = fresh.load_record(record());
    assert_eq!(values(loaded.weight.val()), [1.0, -2.0]);

    // Without one, the record's (doubled) values are what load.
    let plain = Scaled {
        weight: Param::from_tensor(Tensor::<1>::zeros([2], &device)),
    };
    assert_eq!(
        values(plain.load_record(record()).weight.val()),
        [2.0, -4.0]
    );
}

#[test]
fn init_mapper_transforms_the_first_value() {
    let device = Device::default();
    let param =
        Param::from_tensor(Tensor::<1>::ones([3], &device)).init_mapper(|t| t.mul_scalar(3.0));
    assert_eq!(values(param.val()), [3.0, 3.0, 3.0]);
}

#[test]
fn tensor_helpers_for_ports() {
    let mut grads = TensorContainer::<u64>::new();
    grads.register(7, Tensor::<1>::ones([2], &Device::default()));
    let grad: Tensor<1> = grads.get(&7).unwrap();
    assert_eq!(values(grad), [1.0, 1.0]);
    assert_eq!(grads.len(), 1);

    let out = calculate_matmul_output(&Shape::new([8, 1, 2, 3]), &Shape::new([1, 4, 3, 5]));
    assert_eq!(out.unwrap(), Shape::new([8, 4, 2, 5]));
    assert!(matches!(
        calculate_matmul_output(&Shape::new([2, 3]), &Shape::new([2, 3])),
        Err(MetadataError::IncompatibleShapes { .. })
    ));

    let x = Tensor::<1>::from_data([1.0, 2.0, 3.0], &Device::default());
    check_closeness(&x, &x.clone().add_scalar(1e-5));
}
